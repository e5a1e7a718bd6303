/* Unit tests for rg_ignored (core/ignore.c): the gitignore rules (last match
 * wins, directories hide their contents), the defaults, and the list itself. */

#include "ignore_fixture.h"

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

int main(void)
{
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
    RUN(costly_rule_fails_closed_leaving_the_path_guarded);
    return check_done();
}
