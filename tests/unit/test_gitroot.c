/* Unit tests for core/gitroot.c: the path logic of finding a work tree's
 * top as git does. */
#include <limits.h>

#include "check.h"
#include "core/gitroot.h"

TEST(a_ceiling_above_the_directory_is_its_length)
{
    CHECK_EQ_INT(rg_git_ceiling_len("/home/u/repo/sub", "/home/u"), 7);
}

TEST(a_ceiling_with_a_trailing_slash_is_counted_without_it)
{
    CHECK_EQ_INT(rg_git_ceiling_len("/home/u/repo", "/home/u/"), 7);
}

TEST(the_directory_itself_is_no_ceiling)
{
    CHECK_EQ_INT(rg_git_ceiling_len("/home/u/repo", "/home/u/repo"), -1);
}

TEST(a_ceiling_sharing_only_a_prefix_of_a_name_is_no_ceiling)
{
    CHECK_EQ_INT(rg_git_ceiling_len("/home/user/repo", "/home/u"), -1);
}

TEST(a_relative_ceiling_is_ignored)
{
    CHECK_EQ_INT(rg_git_ceiling_len("/home/u/repo", "home"), -1);
}

TEST(the_slash_ceiling_stops_below_the_file_system_root)
{
    CHECK_EQ_INT(rg_git_ceiling_len("/home", "/"), 0);
    CHECK_EQ_INT(rg_git_ceiling_len("/", "/"), -1);
}

TEST(the_walk_climbs_to_the_slash_without_a_ceiling) { CHECK(rg_git_may_climb(0, -1)); }

TEST(the_walk_stops_at_a_ceiling_and_climbs_below_it)
{
    /* "/home/u/repo/sub" under the ceiling "/home/u" (7): repo's parent
     * ends at byte 7, the ceiling itself, never looked at. */
    CHECK(rg_git_may_climb(12, 7));
    CHECK(!rg_git_may_climb(7, 7));
    CHECK(!rg_git_may_climb(0, 0));
}

TEST(a_worktree_gitfile_says_gitdir)
{
    static const char f[] = "gitdir: /r/.git/worktrees/w\n";
    CHECK(rg_gitfile_says_gitdir(f, sizeof f - 1));
}

TEST(a_file_of_other_text_or_an_empty_gitdir_is_no_gitfile)
{
    CHECK(!rg_gitfile_says_gitdir("gitdir: \n", 9));
    CHECK(!rg_gitfile_says_gitdir("gitdir:", 7));
    CHECK(!rg_gitfile_says_gitdir("ref: refs/heads/main\n", 21));
    CHECK(!rg_gitfile_says_gitdir("", 0));
}

TEST(a_gitfile_path_is_relative_to_its_directory_with_line_ends_trimmed)
{
    char out[PATH_MAX];
    CHECK(rg_git_line_path("../.git/modules/m\r\n", 19, "/r/m", out, sizeof out));
    CHECK_EQ_STR(out, "/r/.git/modules/m");
    CHECK(rg_git_line_path("/a/b", 4, "/r", out, sizeof out));
    CHECK_EQ_STR(out, "/a/b");
}

TEST(an_empty_line_or_one_holding_a_nul_names_no_path)
{
    char out[PATH_MAX];
    CHECK(!rg_git_line_path("\n", 1, "/r", out, sizeof out));
    CHECK(!rg_git_line_path("a\0b", 3, "/r", out, sizeof out));
}

TEST(a_head_naming_a_ref_or_an_object_id_is_valid)
{
    static const char id[] = "0123456789abcdef0123456789ABCDEF01234567\n";
    CHECK(rg_git_head_valid("ref: refs/heads/main\n", 21));
    CHECK(rg_git_head_valid("ref:\trefs/x", 11));
    CHECK(rg_git_head_valid(id, sizeof id - 1));
}

TEST(a_head_of_other_text_is_invalid)
{
    CHECK(!rg_git_head_valid("", 0));
    CHECK(!rg_git_head_valid("ref: heads/main\n", 16));
    CHECK(!rg_git_head_valid("ref: refs", 9));
    CHECK(!rg_git_head_valid("0123456789abcdef0123456789abcdef0123456\n", 40));
}

TEST(git_booleans_are_true_yes_on_or_a_nonzero_number)
{
    CHECK(rg_git_env_true("true"));
    CHECK(rg_git_env_true("Yes"));
    CHECK(rg_git_env_true("ON"));
    CHECK(rg_git_env_true("1"));
    CHECK(rg_git_env_true("-1"));
}

TEST(git_booleans_unset_empty_false_or_junk_are_false)
{
    CHECK(!rg_git_env_true(NULL));
    CHECK(!rg_git_env_true(""));
    CHECK(!rg_git_env_true("false"));
    CHECK(!rg_git_env_true("0"));
    CHECK(!rg_git_env_true("maybe"));
}

TEST(a_path_through_a_dot_git_component_is_in_the_git_directory)
{
    CHECK(rg_path_in_gitdir("/r/.git"));
    CHECK(rg_path_in_gitdir("/r/.git/objects"));
    CHECK(!rg_path_in_gitdir("/r/.github/workflows"));
    CHECK(!rg_path_in_gitdir("/r/src"));
}

TEST(the_file_system_root_is_too_wide)
{
    CHECK(rg_git_top_too_wide("/", "/home/u"));
    CHECK(rg_git_top_too_wide("/", NULL));
}

TEST(home_or_above_it_is_too_wide)
{
    CHECK(rg_git_top_too_wide("/home/u", "/home/u"));
    CHECK(rg_git_top_too_wide("/home/u", "/home/u/"));
    CHECK(rg_git_top_too_wide("/home/u", "/home//u/."));
    CHECK(rg_git_top_too_wide("/home", "/home/u"));
}

TEST(a_project_below_home_or_beside_it_is_not_too_wide)
{
    CHECK(!rg_git_top_too_wide("/home/u/src/p", "/home/u"));
    CHECK(!rg_git_top_too_wide("/home/uv", "/home/u"));
    CHECK(!rg_git_top_too_wide("/srv/p", NULL));
    CHECK(!rg_git_top_too_wide("/srv/p", "relative"));
}

int main(void)
{
    RUN(a_ceiling_above_the_directory_is_its_length);
    RUN(a_ceiling_with_a_trailing_slash_is_counted_without_it);
    RUN(the_directory_itself_is_no_ceiling);
    RUN(a_ceiling_sharing_only_a_prefix_of_a_name_is_no_ceiling);
    RUN(a_relative_ceiling_is_ignored);
    RUN(the_slash_ceiling_stops_below_the_file_system_root);
    RUN(the_walk_climbs_to_the_slash_without_a_ceiling);
    RUN(the_walk_stops_at_a_ceiling_and_climbs_below_it);
    RUN(a_worktree_gitfile_says_gitdir);
    RUN(a_file_of_other_text_or_an_empty_gitdir_is_no_gitfile);
    RUN(a_gitfile_path_is_relative_to_its_directory_with_line_ends_trimmed);
    RUN(an_empty_line_or_one_holding_a_nul_names_no_path);
    RUN(a_head_naming_a_ref_or_an_object_id_is_valid);
    RUN(a_head_of_other_text_is_invalid);
    RUN(git_booleans_are_true_yes_on_or_a_nonzero_number);
    RUN(git_booleans_unset_empty_false_or_junk_are_false);
    RUN(a_path_through_a_dot_git_component_is_in_the_git_directory);
    RUN(the_file_system_root_is_too_wide);
    RUN(home_or_above_it_is_too_wide);
    RUN(a_project_below_home_or_beside_it_is_not_too_wide);
    return check_done();
}
