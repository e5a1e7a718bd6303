/* Unit tests for wildmatch.c and ignore.c: git's glob semantics and the
 * gitignore rules (last match wins, directories hide their contents). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/ignore.h"
#include "core/wildmatch.h"
struct glob_case {
    const char *pattern, *text;
    bool pathname, want;
};

static const struct glob_case globs[] = {
    {"foo", "foo", true, true},
    {"bar", "foo", true, false},
    {"", "", true, true},
    {"*", "foo", true, true},
    {"f*", "foo", true, true},
    {"*f", "foo", true, false},
    {"*foo*", "foo", true, true},
    {"*ob*a*r*", "foobar", true, true},
    {"*ab", "aaaaaaabababab", true, true},
    {"foo\\*", "foo*", true, true},
    {"foo\\*bar", "foobar", true, false},
    {"f\\\\oo", "f\\oo", true, true},
    {"*[al]?", "ball", true, true},
    {"[ten]", "ten", true, false},
    {"t[a-g]n", "ten", true, true},
    {"t[!a-g]n", "ten", true, false},
    {"t[^a-g]n", "ton", true, true},
    {"a[]]b", "a]b", true, true},
    {"a[]-]b", "a-b", true, true},
    {"[[:digit:]]x", "5x", true, true},
    {"[[:digit:][:upper:]]x", "Qx", true, true},
    {"[[:digit:]]x", "ax", true, false},
    {"\\[x", "[x", true, true},
    {"[abc", "a", true, false},
    {"?", "/", true, false},
    {"?", "/", false, true},
    {"[/]", "/", true, false},
    {"foo/*", "foo/bar", true, true},
    {"foo/*", "foo/bar/baz", true, false},
    {"foo/*", "foo/bar/baz", false, true},
    {"*.c", "dir/x.c", true, false},
    {"foo/**", "foo/bar/baz", true, true},
    {"foo/**", "foo", true, false},
    {"**/foo", "foo", true, true},
    {"**/foo", "a/b/foo", true, true},
    {"**/foo", "a/b/foox", true, false},
    {"a/**/b", "a/b", true, true},
    {"a/**/b", "a/x/y/b", true, true},
    {"a/*/b", "a/b", true, false},
    {"a/*/b", "a/x/b", true, true},
    {"a/*/b", "a/x/y/b", true, false},
    {"a**b", "a/b", true, false},
    {"**", "a/b/c", true, true},
    {"x/**/y/*.o", "x/p/q/y/z.o", true, true},
    {"*.o", "x.o", true, true},
    {"*.o", ".o", true, true},
    {"*.o", "o", true, false},
    {"*.o", "x.oo", true, false},
    {"*.o", "a/x.o", false, true},
    {"*/x.o", "a/x.o", true, true},
    {"*/x.o", "a/b/x.o", true, false},
    {"*", "", true, true},
};

TEST(wildmatch_follows_git)
{
    for (size_t i = 0; i < sizeof globs / sizeof *globs; i++) {
        const struct glob_case *g = &globs[i];
        if (rg_wildmatch(g->pattern, g->text, g->pathname) != g->want)
            fprintf(stderr, "#   pattern '%s' text '%s' pathname %d: want %d\n", g->pattern,
                    g->text, g->pathname, g->want);
        CHECK(rg_wildmatch(g->pattern, g->text, g->pathname) == g->want);
    }
}

/* "*" then a literal is compared by its tail (wildmatch.c's quick path); the
 * same pattern with its literal's first byte escaped takes the general
 * walk, and must agree. */
TEST(star_literal_matches_as_the_general_walk)
{
    static const char *const lits[] = {"", ".o", "o", "/x", "a/b", ".pyc"};
    static const char *const texts[] = {"",    "x.o", ".o",   "a/x.o", "x.pyc", "d/a/b",
                                        "a/b", "o",   "x.oo", "/x",    "ab",    "q/.pyc"};
    for (size_t i = 0; i < sizeof lits / sizeof *lits; i++) {
        char quick[16], slow[16];
        snprintf(quick, sizeof quick, "*%s", lits[i]);
        snprintf(slow, sizeof slow, lits[i][0] ? "*\\%s" : "*", lits[i]);
        for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
            for (int pathname = 0; pathname < 2; pathname++)
                CHECK(rg_wildmatch(quick, texts[t], pathname) ==
                      rg_wildmatch(slow, texts[t], pathname));
    }
}

static char buf[4096];
static struct rg_ignore_list list;

static void reset(void) { list = (struct rg_ignore_list){buf, sizeof buf, 0, 0}; }

static void defaults(void)
{
    reset();
    for (size_t i = 0; rg_default_ignored_dirs[i][0]; i++)
        CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, rg_default_ignored_dirs[i]));
    for (size_t i = 0; rg_default_ignores[i][0]; i++)
        CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, rg_default_ignores[i]));
}

static bool ign(const char *abs) { return rg_ignored(list.buf, list.len, "/r", 0, abs); }

TEST(defaults_ignore_vcs_build_and_cache_outputs)
{
    defaults();
    CHECK(ign("/r/.git/COMMIT_EDITMSG"));
    CHECK(ign("/r/sub/.git/index"));
    CHECK(ign("/r/src/main.o"));
    CHECK(ign("/r/lib/libx.so"));
    CHECK(ign("/r/out/com/x/Hello.class"));
    CHECK(ign("/r/pkg/__pycache__/m.cpython-311.pyc"));
    CHECK(ign("/r/node_modules/p/index.js"));
    CHECK(ign("/r/build/out"));
    CHECK(ign("/r/src/target/debug/app"));
    CHECK(ign("/r/.src.c.swp"));
    CHECK(ign("/r/autom4te.cache/requests"));
}

TEST(defaults_guard_sources)
{
    defaults();
    CHECK(!ign("/r/src/main.c"));
    CHECK(!ign("/r/Makefile"));
    CHECK(!ign("/r/mybuild/x"));
    CHECK(!ign("/r/.gitignore"));
    CHECK(!ign("/r/x.so.txt"));
    CHECK(!ign("/r/configure.ac"));
}

TEST(dir_only_pattern_does_not_match_a_file)
{
    defaults();
    CHECK(!ign("/r/build"));
    CHECK(!ign("/r/src/dist"));
}

TEST(root_name_is_not_matched)
{
    defaults();
    CHECK(!rg_ignored(list.buf, list.len, "/w/build", 0, "/w/build/main.c"));
}

TEST(ignored_dirs_apply_only_below_the_root)
{
    defaults();
    CHECK(rg_ignored(list.buf, list.len, "/", 0, "/tmp/x"));
    CHECK(rg_ignored(list.buf, list.len, "/", 0, "/var/tmp/x"));
    CHECK(!rg_ignored(list.buf, list.len, "/", 0, "/var/lib/x"));
    CHECK(!rg_ignored(list.buf, list.len, "/tmp/w", 0, "/tmp/w/x"));
    CHECK(!rg_ignored(list.buf, list.len, "/tmp", 0, "/tmp/x"));
    CHECK(!rg_ignored(list.buf, list.len, "/", 0, "/tmpfile"));
}

TEST(last_match_wins_and_negation_reincludes)
{
    reset();
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "*.log"));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "!keep.log"));
    CHECK(ign("/r/a.log"));
    CHECK(!ign("/r/keep.log"));
    CHECK(!ign("/r/d/keep.log"));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "keep.log"));
    CHECK(ign("/r/keep.log"));
}

TEST(ignored_dir_cannot_be_reincluded_below)
{
    reset();
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "out/"));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "!out/keep.c"));
    CHECK(ign("/r/out/keep.c"));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "!out/"));
    CHECK(!ign("/r/out/keep.c"));
}

TEST(pattern_with_slash_is_anchored_at_root)
{
    reset();
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "/top.txt"));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "doc/*.txt"));
    CHECK(ign("/r/top.txt"));
    CHECK(!ign("/r/sub/top.txt"));
    CHECK(ign("/r/doc/a.txt"));
    CHECK(!ign("/r/doc/sub/a.txt"));
    CHECK(!ign("/r/x/doc/a.txt"));
}

TEST(double_star_crosses_directories)
{
    reset();
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "**/gen/**"));
    CHECK(ign("/r/gen/a"));
    CHECK(ign("/r/x/y/gen/z/a"));
    CHECK(!ign("/r/x/gen"));
}

TEST(root_file_rules_apply_under_their_root_only)
{
    reset();
    CHECK(rg_ignore_add(&list, (char)(RG_IGN_ROOT0 + 1), "*.dat"));
    CHECK(!rg_ignored(list.buf, list.len, "/a", 0, "/a/x.dat"));
    CHECK(rg_ignored(list.buf, list.len, "/b", 1, "/b/x.dat"));
}

TEST(lines_are_cleaned_as_git_does)
{
    reset();
    const char text[] = "# comment\n\n   \nspaced.txt   \r\nesc\\ \n\\#hash\n\\!bang\n";
    CHECK(rg_ignore_add_lines(&list, RG_IGN_EVERY_ROOT, text, sizeof text - 1));
    CHECK_EQ_INT(list.count, 4);
    CHECK(ign("/r/spaced.txt"));
    CHECK(ign("/r/esc "));
    CHECK(!ign("/r/esc"));
    CHECK(ign("/r/#hash"));
    CHECK(ign("/r/!bang"));
}

TEST(rules_iterate_in_order_with_their_scope)
{
    reset();
    CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, "/tmp"));
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "*.o"));
    char scope = 0;
    const char *r = rg_ignore_next(list.buf, list.len, NULL, &scope);
    CHECK_EQ_STR(r, "/tmp");
    CHECK_EQ_INT(scope, RG_IGN_ABSOLUTE);
    r = rg_ignore_next(list.buf, list.len, r, &scope);
    CHECK_EQ_STR(r, "*.o");
    CHECK_EQ_INT(scope, RG_IGN_EVERY_ROOT);
    CHECK(rg_ignore_next(list.buf, list.len, r, &scope) == NULL);
}

TEST(full_list_refuses_more_rules)
{
    char small[8];
    struct rg_ignore_list l = {small, sizeof small, 0, 0};
    CHECK(rg_ignore_add(&l, RG_IGN_EVERY_ROOT, "*.o"));
    CHECK(!rg_ignore_add(&l, RG_IGN_EVERY_ROOT, "*.pyc"));
    CHECK_EQ_INT(l.count, 1);
    CHECK_EQ_INT(l.len, 5);
}

TEST(empty_list_ignores_nothing)
{
    CHECK(!rg_ignored(NULL, 0, "/r", 0, "/r/.git/x"));
    CHECK(!rg_ignored("", 0, "/r", 0, "/r/a.o"));
}

/* Eight "**" components with a literal between each, against a path of
 * sixty directories that cannot match: without a bound the backtracking
 * takes far longer than any test run (the fuzzer's case took minutes). */
static void costly(char *pat, size_t pcap, char *path, size_t tcap, const char *prefix)
{
    snprintf(pat, pcap, "%s", prefix);
    for (int i = 0; i < 8; i++)
        strncat(pat, "**/a*/", pcap - strlen(pat) - 1);
    strncat(pat, "b", pcap - strlen(pat) - 1);
    snprintf(path, tcap, "/r");
    for (int i = 0; i < 60; i++)
        strncat(path, "/a", tcap - strlen(path) - 1);
    strncat(path, "/c", tcap - strlen(path) - 1);
}

TEST(costly_pattern_gives_up_instead_of_hanging)
{
    char pat[128], path[256];
    costly(pat, sizeof pat, path, sizeof path, "");
    CHECK_EQ_INT(rg_wildmatch_bounded(pat, path + 3, true), RG_WM_TOO_COSTLY);
    CHECK(!rg_wildmatch(pat, path + 3, true));
    /* The same shape that matches early is still decided. */
    CHECK_EQ_INT(rg_wildmatch_bounded(pat, "a/a/a/a/a/a/a/a/b", true), RG_WM_MATCH);
}

TEST(costly_rule_fails_closed_leaving_the_path_guarded)
{
    char pat[128], path[256];
    reset();
    costly(pat, sizeof pat, path, sizeof path, "");
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, pat));
    CHECK(!ign(path)); /* an ignoring rule that gives up ignores nothing */
    reset();
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, "c"));
    CHECK(ign(path));
    costly(pat, sizeof pat, path, sizeof path, "!");
    CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, pat));
    CHECK(!ign(path)); /* a re-including rule that gives up re-includes */
}

static enum rg_tier tier(const char *abs)
{
    return rg_ignore_tier(list.buf, list.len, "/r", 0, abs);
}

static void add_lines(const char *text)
{
    CHECK(rg_ignore_add_lines(&list, (char)RG_IGN_ROOT0, text, strlen(text)));
}

TEST(keywords_name_the_tier_and_plain_lines_are_free)
{
    const char *pat;
    CHECK_EQ_INT(rg_rule_tier("guard notes/", &pat), RG_TIER_GUARD);
    CHECK_EQ_STR(pat, "notes/");
    CHECK_EQ_INT(rg_rule_tier("journal   *.db", &pat), RG_TIER_JOURNAL);
    CHECK_EQ_STR(pat, "*.db");
    CHECK_EQ_INT(rg_rule_tier("free out/", &pat), RG_TIER_FREE);
    CHECK_EQ_STR(pat, "out/");
    CHECK_EQ_INT(rg_rule_tier("out/", &pat), RG_TIER_FREE);
    CHECK_EQ_STR(pat, "out/");
}

TEST(a_keyword_needs_a_space_and_a_backslash_escapes_it)
{
    const char *pat;
    CHECK_EQ_INT(rg_rule_tier("guard", &pat), RG_TIER_FREE);
    CHECK_EQ_STR(pat, "guard");
    CHECK_EQ_INT(rg_rule_tier("guarded/", &pat), RG_TIER_FREE);
    CHECK_EQ_INT(rg_rule_tier("\\guard x", &pat), RG_TIER_FREE);
    reset();
    add_lines("\\guard x\n");
    CHECK_EQ_INT(tier("/r/guard x"), RG_TIER_FREE);
    CHECK_EQ_INT(tier("/r/x"), RG_TIER_NONE);
}

TEST(no_matching_rule_leaves_the_tier_to_git)
{
    defaults();
    CHECK_EQ_INT(tier("/r/src/main.c"), RG_TIER_NONE);
    CHECK_EQ_INT(tier("/r/build/out"), RG_TIER_FREE);
    CHECK_EQ_INT(tier("/r/.git/index"), RG_TIER_FREE);
}

TEST(guard_takes_a_git_ignored_directory_back_whole)
{
    defaults();
    add_lines("guard notes/\n");
    CHECK_EQ_INT(tier("/r/notes/a.txt"), RG_TIER_GUARD);
    CHECK_EQ_INT(tier("/r/sub/notes/deep/b.txt"), RG_TIER_GUARD);
    CHECK_EQ_INT(tier("/r/notes.txt"), RG_TIER_NONE);
}

TEST(later_rules_move_paths_out_of_the_defaults)
{
    defaults();
    add_lines("journal build/\nguard *.so\n");
    CHECK_EQ_INT(tier("/r/build/app"), RG_TIER_JOURNAL);
    CHECK_EQ_INT(tier("/r/lib/libx.so"), RG_TIER_GUARD);
    CHECK_EQ_INT(tier("/r/dist/x.tar"), RG_TIER_FREE);
}

TEST(a_directory_rule_decides_below_it)
{
    reset();
    add_lines("guard data/\nfree data/*.tmp\njournal *.db\nfree data2/\nguard data2/x\n");
    CHECK_EQ_INT(tier("/r/data/a.tmp"), RG_TIER_GUARD);
    CHECK_EQ_INT(tier("/r/app.db"), RG_TIER_JOURNAL);
    CHECK_EQ_INT(tier("/r/data2/x"), RG_TIER_FREE);
}

TEST(negation_hands_the_path_back_to_git)
{
    defaults();
    add_lines("!build/\n");
    CHECK_EQ_INT(tier("/r/build/out"), RG_TIER_NONE);
    add_lines("journal *.log\n!keep.log\n");
    CHECK_EQ_INT(tier("/r/a.log"), RG_TIER_JOURNAL);
    CHECK_EQ_INT(tier("/r/keep.log"), RG_TIER_NONE);
}

TEST(absolute_directories_are_free)
{
    defaults();
    add_lines("guard *\n");
    CHECK_EQ_INT(rg_ignore_tier(list.buf, list.len, "/", 0, "/tmp/x"), RG_TIER_FREE);
}

static enum rg_tier dirs(const char *abs)
{
    return rg_ignore_dirs_tier(list.buf, list.len, "/r", 0, abs);
}

TEST(directories_answer_depends_on_the_directory_alone)
{
    reset();
    add_lines("guard data/\nfree *.tmp\njournal logs/\n");
    CHECK_EQ_INT(dirs("/r/data/a.tmp"), RG_TIER_GUARD);
    CHECK_EQ_INT(dirs("/r/data/b.c"), RG_TIER_GUARD);
    CHECK_EQ_INT(dirs("/r/src/a.tmp"), RG_TIER_NONE);
    CHECK_EQ_INT(dirs("/r/logs/deep/x"), RG_TIER_JOURNAL);
    CHECK_EQ_INT(dirs("/r/data"), RG_TIER_NONE); /* a file named data: no directory above */
}

TEST(file_half_takes_the_directories_answer_unless_an_absolute_rule_frees_it)
{
    reset();
    add_lines("free *.tmp\n");
    CHECK_EQ_INT(rg_ignore_file_tier(list.buf, list.len, "/r", 0, "/r/src/a.tmp", RG_TIER_GUARD),
                 RG_TIER_GUARD);
    CHECK_EQ_INT(rg_ignore_file_tier(list.buf, list.len, "/r", 0, "/r/src/a.tmp", RG_TIER_NONE),
                 RG_TIER_FREE);
    CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, "/r/src"));
    CHECK_EQ_INT(rg_ignore_file_tier(list.buf, list.len, "/", 0, "/r/src/a.c", RG_TIER_GUARD),
                 RG_TIER_FREE);
}

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
    RUN(wildmatch_follows_git);
    RUN(star_literal_matches_as_the_general_walk);
    RUN(defaults_ignore_vcs_build_and_cache_outputs);
    RUN(defaults_guard_sources);
    RUN(dir_only_pattern_does_not_match_a_file);
    RUN(root_name_is_not_matched);
    RUN(ignored_dirs_apply_only_below_the_root);
    RUN(last_match_wins_and_negation_reincludes);
    RUN(ignored_dir_cannot_be_reincluded_below);
    RUN(pattern_with_slash_is_anchored_at_root);
    RUN(double_star_crosses_directories);
    RUN(root_file_rules_apply_under_their_root_only);
    RUN(lines_are_cleaned_as_git_does);
    RUN(rules_iterate_in_order_with_their_scope);
    RUN(full_list_refuses_more_rules);
    RUN(empty_list_ignores_nothing);
    RUN(costly_pattern_gives_up_instead_of_hanging);
    RUN(costly_rule_fails_closed_leaving_the_path_guarded);
    RUN(keywords_name_the_tier_and_plain_lines_are_free);
    RUN(a_keyword_needs_a_space_and_a_backslash_escapes_it);
    RUN(no_matching_rule_leaves_the_tier_to_git);
    RUN(guard_takes_a_git_ignored_directory_back_whole);
    RUN(later_rules_move_paths_out_of_the_defaults);
    RUN(a_directory_rule_decides_below_it);
    RUN(negation_hands_the_path_back_to_git);
    RUN(absolute_directories_are_free);
    RUN(directories_answer_depends_on_the_directory_alone);
    RUN(file_half_takes_the_directories_answer_unless_an_absolute_rule_frees_it);
    RUN(compiled_rules_answer_a_file_as_the_list_does);
    RUN(a_directory_freed_once_answers_each_file_as_the_list_does);
    RUN(suffix_rules_answer_a_file_as_the_list_does);
    RUN(a_list_of_too_many_rules_is_not_compiled);
    RUN(an_empty_list_compiles_to_no_rule);
    return check_done();
}
