/* Unit tests for core/wildmatch.c: git's glob semantics, its quick path for
 * '*' then a literal, and the bound on backtracking. */
#include <stdio.h>

#include "ignore_fixture.h"

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

TEST(costly_pattern_gives_up_instead_of_hanging)
{
    char pat[128], path[256];
    costly(pat, sizeof pat, path, sizeof path, "");
    CHECK_EQ_INT(rg_wildmatch_bounded(pat, path + 3, true), RG_WM_TOO_COSTLY);
    CHECK(!rg_wildmatch(pat, path + 3, true));
    /* The same shape that matches early is still decided. */
    CHECK_EQ_INT(rg_wildmatch_bounded(pat, "a/a/a/a/a/a/a/a/b", true), RG_WM_MATCH);
}

int main(void)
{
    RUN(wildmatch_follows_git);
    RUN(star_literal_matches_as_the_general_walk);
    RUN(costly_pattern_gives_up_instead_of_hanging);
    return check_done();
}
