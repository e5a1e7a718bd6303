/* Unit tests for core/genmark.c: bison's and flex's output, by its own
 * first line, and what a person's C file looks like beside it. */
#include <string.h>

#include "check.h"
#include "core/genmark.h"
static bool generated(const char *name, const char *s)
{
    return rg_parser_generated(name, s, strlen(s));
}

TEST(bison_and_flex_first_lines_mark_their_output)
{
    CHECK(generated("parse.c", "/* A Bison parser, made by GNU Bison 3.8.2.  */\n\n"));
    CHECK(generated("parse.h", "/* A Bison parser, made by GNU Bison 3.8.2.  */\n"));
    CHECK(generated("parser.cc", "// A Bison parser, made by GNU Bison 3.8.2.\n"));
    CHECK(generated("lex.yy.c", "\n#line 3 \"lex.yy.c\"\n\n"));
    CHECK(generated("scan.c", "#line 2 \"scan.c\"\n\n"));
    CHECK(generated("scan.c", "#line 2 \"build/gen/scan.c\"\n"));
}

TEST(a_persons_c_file_is_not_generated)
{
    CHECK(!generated("main.c", "/* A parser I wrote. */\n"));
    CHECK(!generated("parse.c", "/* A Bison parser, made by GNU Bison 3.8.2.  */")); /* cut */
    CHECK(!generated("main.c", "#line 2 \"scan.c\"\n"));     /* names another */
    CHECK(!generated("scan.c", "#line 2 \"myscan.c\"\n"));   /* not its own name */
    CHECK(!generated("scan.c", "#line 2 \"scan.c\" \n"));    /* more on the line */
    CHECK(!generated("scan.c", "#line \"scan.c\"\n"));       /* no number */
    CHECK(!generated("scan.c", "#line 2 \"scan.c"));         /* cut short */
    CHECK(!generated("scan.c", "\n\n#line 2 \"scan.c\"\n")); /* not first */
    CHECK(!generated("scan.c", "#include <stdio.h>\n#line 2 \"scan.c\"\n"));
    CHECK(!generated("", "#line 2 \"\"\n"));
}

int main(void)
{
    RUN(bison_and_flex_first_lines_mark_their_output);
    RUN(a_persons_c_file_is_not_generated);
    return check_done();
}
