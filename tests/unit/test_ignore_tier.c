/* Unit tests for the tiers of core/ignore.c (guard, journal, free): the
 * keywords that name them, what git decides, and the answer for a directory
 * that the file's answer starts from. */

#include "ignore_fixture.h"

static enum rg_tier tier(const char *abs)
{
    return rg_ignore_tier(list.buf, list.len, "/r", 0, abs);
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

int main(void)
{
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
    return check_done();
}
