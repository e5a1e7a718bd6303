/* Unit tests for the compiled ignore rules (core/ignore.c): each answers
 * every path as the list it was compiled from does. */
#include <string.h>

#include "ignore_fixture.h"

/* A list of every kind of rule: the defaults, keywords, '!', anchored and
 * '**' patterns, directory rules, a bare '!', rules of one root, an
 * absolute file, and patterns too costly to decide either way. */
static void every_kind(void)
{
    char pat[128], path[256];
    defaults();
    add_lines("guard *.tmp\njournal logs/*.log\nfree /top.txt\n!keep.o\nsrc/**/gen_*\n"
              "guard dist/\n!\n*.c\n!src/*.c\n\\guard x\nguard  spaced.txt\n");
    CHECK(rg_ignore_add(&list, RG_IGN_ROOT0 + 1, "only-one.txt"));
    CHECK(rg_ignore_add(&list, RG_IGN_ROOT0, "journal only-zero.txt"));
    CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, "/r/abs/file.txt"));
    costly(pat, sizeof pat, path, sizeof path, "");
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, pat));
    costly(pat, sizeof pat, path, sizeof path, "!");
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, pat));
}

TEST(compiled_rules_answer_a_file_as_the_list_does)
{
    static const char *const paths[] = {
        "/r/a.o",           "/r/d/keep.o",      "/r/x.tmp",
        "/r/logs/a.log",    "/r/logs/d/a.log",  "/r/top.txt",
        "/r/d/top.txt",     "/r/src/a/b/gen_x", "/r/gen_x",
        "/r/dist",          "/r/a.c",           "/r/src/a.c",
        "/r/src/d/a.c",     "/r/guard x",       "/r/x",
        "/r/spaced.txt",    "/r/only-one.txt",  "/r/d/only-zero.txt",
        "/r/abs/file.txt",  "/r/abs/file.txt2", "/r/abs",
        "/r/a.swp",         "/r/plain.txt",     "/r",
        "/r/d/e/f/g/h.pyc", "/tmp/a.txt",       "/r/tmp/a.txt"};
    static const enum rg_tier dirs_said[] = {RG_TIER_NONE, RG_TIER_GUARD, RG_TIER_FREE,
                                             RG_TIER_JOURNAL};
    char pat[128], path[256];
    every_kind();
    struct rg_ignore_compiled cr;
    CHECK(rg_ignore_compile(list.buf, list.len, &cr));
    for (unsigned root = 0; root < 2; root++)
        for (size_t d = 0; d < sizeof dirs_said / sizeof *dirs_said; d++) {
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
                CHECK_EQ_INT(
                    rg_ignore_file_tier_compiled(&cr, "/r", root, paths[i], dirs_said[d]),
                    rg_ignore_file_tier(list.buf, list.len, "/r", root, paths[i], dirs_said[d]));
            costly(pat, sizeof pat, path, sizeof path, ""); /* a path they give up on */
            CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", root, path, dirs_said[d]),
                         rg_ignore_file_tier(list.buf, list.len, "/r", root, path, dirs_said[d]));
        }
    /* Not a test that cannot fail: the list does decide these. */
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/a.o", RG_TIER_NONE), RG_TIER_FREE);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/d/keep.o", RG_TIER_NONE),
                 RG_TIER_NONE);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/x.tmp", RG_TIER_NONE),
                 RG_TIER_GUARD);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/d/only-zero.txt", RG_TIER_NONE),
                 RG_TIER_JOURNAL);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 1, "/r/d/only-zero.txt", RG_TIER_NONE),
                 RG_TIER_NONE);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/abs/file.txt", RG_TIER_GUARD),
                 RG_TIER_FREE);
}

/* The absolute rules' answer for a directory, asked once and given to each
 * of its files' passes, is the list's answer file by file: for a rule
 * shorter than the directory, as long as it, and one naming the file. */
/* rg_ignore_file_tier's abs must be at or below its root (core/ignore.h):
 * past the root's length, a shorter path is read beyond its end. */
static bool at_or_below(const char *root, const char *abs)
{
    size_t n = strlen(root);
    return strcmp(root, "/") == 0 ||
           (strncmp(abs, root, n) == 0 && (abs[n] == '\0' || abs[n] == '/'));
}

TEST(a_directory_freed_once_answers_each_file_as_the_list_does)
{
    static const char *const paths[] = {"/r/abs/file.txt", "/r/abs/file.txt2",
                                        "/r/abs",          "/r/abs/file.txt/x",
                                        "/r/a.o",          "/r/d/keep.o",
                                        "/r/x.tmp",        "/r",
                                        "/tmp/a.txt",      "/tmp",
                                        "/r/tmp/a.txt",    "/x",
                                        "/r/src/d/a.c"};
    static const char *const roots[] = {"/r", "/", "/tmp"};
    every_kind();
    CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, "/r/abs"));
    CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, "/tmp"));
    struct rg_ignore_compiled cr;
    CHECK(rg_ignore_compile(list.buf, list.len, &cr));
    for (size_t k = 0; k < sizeof roots / sizeof *roots; k++)
        for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
            const char *abs = paths[i];
            if (!at_or_below(roots[k], abs))
                continue;
            size_t n = (size_t)(strrchr(abs, '/') - abs);
            bool freed = rg_ignore_dir_freed(&cr, roots[k], abs, n);
            CHECK_EQ_INT(
                rg_ignore_file_tier_compiled_at(&cr, roots[k], 0, abs, RG_TIER_NONE, n, freed),
                rg_ignore_file_tier(list.buf, list.len, roots[k], 0, abs, RG_TIER_NONE));
        }
    /* Not a test that cannot fail: /r/abs frees its files, /tmp not a
     * root's own. */
    CHECK(rg_ignore_dir_freed(&cr, "/r", "/r/abs/x", 6));
    CHECK(!rg_ignore_dir_freed(&cr, "/r", "/r/d/x", 4));
    CHECK(!rg_ignore_dir_freed(&cr, "/tmp", "/tmp/x", 4));
}

/* '*' then a literal is compiled to a comparison of the name's tail: the
 * same answers as the matcher, for names shorter than, equal to and
 * longer than the literal, '!' rules, keywords, and near shapes. */
TEST(suffix_rules_answer_a_file_as_the_list_does)
{
    static const char *const paths[] = {"/r/a.o",      "/r/.o",     "/r/o",     "/r/b.o.keep",
                                        "/r/d/c.keep", "/r/d/x.h",  "/r/aqb",   "/r/d/c.h.keep",
                                        "/r/swp",      "/r/d/.swp", "/r/x.tmp", "/r/d/a.tmp.o",
                                        "/r/*.o",      "/r/a.o/b",  "/r/a*x",   "/r/a\\*x",
                                        "/r/a.y",      "/r/az",     "/r/a\\z"};
    reset();
    defaults();
    add_lines(
        "*\nguard *.tmp\n!*.keep\n*.[ch]\n*q*\njournal *\\*x\njournal *\\z\n**.y\n!*.o.keep\n");
    struct rg_ignore_compiled cr;
    CHECK(rg_ignore_compile(list.buf, list.len, &cr));
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, paths[i], RG_TIER_NONE),
                     rg_ignore_file_tier(list.buf, list.len, "/r", 0, paths[i], RG_TIER_NONE));
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/b.o.keep", RG_TIER_NONE),
                 RG_TIER_NONE);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/x.tmp", RG_TIER_NONE),
                 RG_TIER_GUARD);
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/az", RG_TIER_NONE),
                 RG_TIER_JOURNAL);
}

TEST(a_list_of_too_many_rules_is_not_compiled)
{
    struct rg_ignore_compiled cr;
    reset();
    for (int i = 0; i < RG_IGNORE_COMPILED_MAX; i++)
        CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "*.x"));
    CHECK(rg_ignore_compile(list.buf, list.len, &cr));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "*.y"));
    CHECK(!rg_ignore_compile(list.buf, list.len, &cr));
}

TEST(an_empty_list_compiles_to_no_rule)
{
    struct rg_ignore_compiled cr;
    CHECK(rg_ignore_compile(NULL, 0, &cr));
    CHECK_EQ_INT(rg_ignore_file_tier_compiled(&cr, "/r", 0, "/r/a.o", RG_TIER_NONE), RG_TIER_NONE);
}

int main(void)
{
    RUN(compiled_rules_answer_a_file_as_the_list_does);
    RUN(a_directory_freed_once_answers_each_file_as_the_list_does);
    RUN(suffix_rules_answer_a_file_as_the_list_does);
    RUN(a_list_of_too_many_rules_is_not_compiled);
    RUN(an_empty_list_compiles_to_no_rule);
    return check_done();
}
