/* Unit tests for core/depmark.c: the dependency file gcc -MD writes, by
 * its first rule, and what a person's file named NAME.d looks like. */
#include <string.h>

#include "check.h"
#include "core/depmark.h"
static bool depfile(const char *name, const char *s) { return rg_depfile(name, s, strlen(s)); }

TEST(depfile_is_a_rule_for_an_object_named_dot_d)
{
    CHECK(depfile("main.d", "main.o: main.c util.h\n"));
    CHECK(depfile("obj/main.d", "obj/main.o: src/main.c \\\n src/util.h\n"));
    CHECK(depfile("a.d", "a.o:\n"));
}

TEST(depfile_is_a_rule_for_the_output_it_is_named_after_from_a_c_source)
{
    CHECK(depfile("main.d", "main: main.c /usr/include/stdc-predef.h\n"));
    CHECK(depfile("main.d", "main.obj: main.c\n"));
    CHECK(depfile("prog.d", "bin/prog: src/prog.cpp \\\n src/util.h\n"));
    CHECK(depfile("prog.d", "prog.exe: prog.cc\n"));
    CHECK(depfile("t.d", "t: t.S\n"));
}

TEST(d_source_or_other_rule_is_no_depfile)
{
    CHECK(!depfile("main.d", "module main;\nvoid main() {}\n"));
    CHECK(!depfile("main.d", "private: int x;\n"));
    CHECK(!depfile("main.d", "main: main.h\n"));  /* no source first */
    CHECK(!depfile("main.d", "main: main.c"));    /* cut short */
    CHECK(!depfile("main.d", "other: main.c\n")); /* not the output it names */
    CHECK(!depfile("main.d", "mainx: main.c\n"));
    CHECK(!depfile("main.d", "main:\n"));
    CHECK(!depfile("main.d", ".o: x\n"));
    CHECK(!depfile("main.d", "main.o:")); /* cut short */
    CHECK(!depfile("main.dep", "main.o: main.c\n"));
    CHECK(!depfile("main.d", "main.o:main.c\n"));
    CHECK(!depfile("main.d", "main:main.c\n"));
}

int main(void)
{
    RUN(depfile_is_a_rule_for_an_object_named_dot_d);
    RUN(depfile_is_a_rule_for_the_output_it_is_named_after_from_a_c_source);
    RUN(d_source_or_other_rule_is_no_depfile);
    return check_done();
}
