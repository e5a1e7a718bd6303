/* Unit tests for gitignore.c: git's exclude lists in git's order of
 * precedence, and core.excludesFile read from a config file's text. */
#include "check.h"
#include "core/gitignore.h"
static struct rg_exclude_list lists[8];
static size_t nlists;

/* Lists are added lowest precedence first, as the caller reads them. */
static void add(const char *base, const char *text)
{
    lists[nlists++] = (struct rg_exclude_list){base, strlen(base), text, strlen(text)};
}

static bool ex(const char *rel) { return rg_git_excluded(lists, nlists, rel); }

TEST(top_gitignore_excludes_what_it_names)
{
    nlists = 0;
    add("", "*.log\nnotes/\n/top.txt\n");
    CHECK(ex("a.log"));
    CHECK(ex("d/a.log"));
    CHECK(ex("notes/a.txt"));
    CHECK(ex("x/notes/a.txt"));
    CHECK(ex("top.txt"));
    CHECK(!ex("d/top.txt"));
    CHECK(!ex("main.c"));
    CHECK(!ex("notes"));
}

TEST(a_deeper_gitignore_wins_over_a_higher_one)
{
    nlists = 0;
    add("", "*.log\n");
    add("d", "!keep.log\n");
    CHECK(ex("d/a.log"));
    CHECK(!ex("d/keep.log"));
    CHECK(!ex("d/e/keep.log"));
    CHECK(ex("keep.log"));
}

TEST(a_gitignore_applies_below_its_directory_only)
{
    nlists = 0;
    add("d", "/x.txt\n*.tmp\n");
    CHECK(ex("d/x.txt"));
    CHECK(!ex("x.txt"));
    CHECK(!ex("d/e/x.txt"));
    CHECK(ex("d/e/y.tmp"));
    CHECK(!ex("dd/y.tmp"));
    CHECK(!ex("y.tmp"));
}

TEST(gitignore_wins_over_info_exclude_and_that_over_excludes_file)
{
    nlists = 0;
    add("", "*.a\n*.b\n*.c\n"); /* core.excludesFile */
    add("", "!*.b\n*.d\n");     /* .git/info/exclude */
    add("", "!*.c\n");          /* .gitignore */
    CHECK(ex("x.a"));
    CHECK(!ex("x.b"));
    CHECK(!ex("x.c"));
    CHECK(ex("x.d"));
}

TEST(an_excluded_directory_hides_everything_below)
{
    nlists = 0;
    add("", "out/\n!out/keep.c\n");
    add("out", "!keep2.c\n");
    CHECK(ex("out/keep.c"));
    CHECK(ex("out/keep2.c"));
    CHECK(ex("out/a/b/c"));
}

TEST(comments_blanks_and_trailing_spaces_are_cleaned)
{
    nlists = 0;
    add("", "# *.c\n\n   \nspaced.txt   \r\n\\#hash\n");
    CHECK(!ex("x.c"));
    CHECK(ex("spaced.txt"));
    CHECK(ex("#hash"));
}

TEST(no_lists_exclude_nothing)
{
    nlists = 0;
    CHECK(!ex("a.log"));
    CHECK(!ex(""));
}

static bool cfg(const char *text, char *out)
{
    return rg_gitconfig_excludes(text, strlen(text), out, 256);
}

TEST(config_gives_core_excludes_file)
{
    char out[256];
    CHECK(cfg("[core]\n\texcludesFile = ~/.gitignore_global\n", out));
    CHECK_EQ_STR(out, "~/.gitignore_global");
    CHECK(cfg("[user]\n name = x\n[Core]\n  ExcludesFile=\"/a b/ign\" # c\n", out));
    CHECK_EQ_STR(out, "/a b/ign");
    CHECK(cfg("[core]\nexcludesfile = /one\n[core]\nexcludesfile = /two ; later\n", out));
    CHECK_EQ_STR(out, "/two");
}

TEST(config_elsewhere_gives_nothing)
{
    char out[256];
    CHECK(!cfg("[user]\n\texcludesFile = /x\n", out));
    CHECK(!cfg("[core \"sub\"]\n\texcludesFile = /x\n", out));
    CHECK(!cfg("excludesFile = /x\n", out));
    CHECK(!cfg("[core]\n\texcludesFileX = /x\n\teditor = vi\n", out));
    CHECK(!cfg("[core]\n\texcludesFile =\n", out));
    CHECK(!cfg("", out));
}

TEST(config_value_too_long_gives_nothing)
{
    char out[4];
    CHECK(!rg_gitconfig_excludes("[core]\nexcludesfile = /long\n", 28, out, sizeof out));
}

int main(void)
{
    RUN(top_gitignore_excludes_what_it_names);
    RUN(a_deeper_gitignore_wins_over_a_higher_one);
    RUN(a_gitignore_applies_below_its_directory_only);
    RUN(gitignore_wins_over_info_exclude_and_that_over_excludes_file);
    RUN(an_excluded_directory_hides_everything_below);
    RUN(comments_blanks_and_trailing_spaces_are_cleaned);
    RUN(no_lists_exclude_nothing);
    RUN(config_gives_core_excludes_file);
    RUN(config_elsewhere_gives_nothing);
    RUN(config_value_too_long_gives_nothing);
    return check_done();
}
