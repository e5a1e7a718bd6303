/* Unit tests for the lexical paths of core/text.c: rg_path_join (no file
 * system: '.' and '..' by name), rg_path_under, rg_concat and rg_fd_link. */

#include "check.h"
#include "core/text.h"

static const char *join(const char *base, const char *path)
{
    static char out[256];
    if (!rg_path_join(out, sizeof out, base, path))
        return "(false)";
    return out;
}

static bool join_cap(size_t cap, const char *base, const char *path, const char **result)
{
    static char out[256];
    memset(out, '#', sizeof out);
    bool ok = rg_path_join(out, cap, base, path);
    for (size_t i = cap; i < sizeof out; i++)
        if (!CHECK(out[i] == '#'))
            break;
    *result = ok ? out : "(false)";
    return ok;
}

TEST(join_relative_onto_base) { CHECK_EQ_STR(join("/home/u", "src/a.c"), "/home/u/src/a.c"); }

TEST(join_absolute_ignores_base) { CHECK_EQ_STR(join("/home/u", "/etc/passwd"), "/etc/passwd"); }

TEST(join_dot_components_vanish) { CHECK_EQ_STR(join("/a/./b", "./c/."), "/a/b/c"); }

TEST(join_dot_alone_is_base) { CHECK_EQ_STR(join("/a/b", "."), "/a/b"); }

TEST(join_dotdot_removes_a_component) { CHECK_EQ_STR(join("/a/b", "../c"), "/a/c"); }

TEST(join_dotdot_in_base) { CHECK_EQ_STR(join("/a/b/../c", "d"), "/a/c/d"); }

TEST(join_dotdot_past_root_stays_at_root)
{
    CHECK_EQ_STR(join("/a", "../.."), "/");
    CHECK_EQ_STR(join("/", "../../x"), "/x");
    CHECK_EQ_STR(join("/a", "/../../b/.."), "/");
}

TEST(join_repeated_slashes_fold) { CHECK_EQ_STR(join("//a///b", "c//d"), "/a/b/c/d"); }

TEST(join_trailing_slash_is_dropped) { CHECK_EQ_STR(join("/a/", "b/"), "/a/b"); }

TEST(join_root_onto_root) { CHECK_EQ_STR(join("/", "/"), "/"); }

TEST(join_empty_path_is_base) { CHECK_EQ_STR(join("/a/b", ""), "/a/b"); }

TEST(join_dotdot_prefix_is_a_name) { CHECK_EQ_STR(join("/a", "..b/.c/..."), "/a/..b/.c/..."); }

TEST(join_too_long_is_false)
{
    const char *r;
    CHECK(!join_cap(8, "/abc", "defgh", &r));
    CHECK(!join_cap(2, "/", "x", &r));
    CHECK(!join_cap(1, "/", "/", &r));
    CHECK(!join_cap(0, "/", "/", &r));
}

TEST(join_exact_fit)
{
    /* "/abc/de" is 7 characters: it needs and fits 8 bytes. */
    const char *r;
    CHECK(join_cap(8, "/abc", "de", &r));
    CHECK_EQ_STR(r, "/abc/de");
    CHECK(!join_cap(7, "/abc", "de", &r));
    CHECK(join_cap(2, "/", "/", &r));
    CHECK_EQ_STR(r, "/");
    CHECK(join_cap(3, "/", "x", &r));
    CHECK_EQ_STR(r, "/x");
}

TEST(under_child_is_under) { CHECK(rg_path_under("/a/b", "/a")); }

TEST(under_deep_child_is_under) { CHECK(rg_path_under("/a/b/c/d", "/a/b")); }

TEST(under_sibling_prefix_is_not_under) { CHECK(!rg_path_under("/ab", "/a")); }

TEST(under_root_itself_is_under) { CHECK(rg_path_under("/a", "/a")); }

TEST(under_parent_is_not_under) { CHECK(!rg_path_under("/", "/a")); }

TEST(under_other_tree_is_not_under) { CHECK(!rg_path_under("/b/a", "/a")); }

TEST(under_slash_holds_everything)
{
    CHECK(rg_path_under("/", "/"));
    CHECK(rg_path_under("/x", "/"));
    CHECK(rg_path_under("/x/y/z", "/"));
}

TEST(concat_joins_parts_or_writes_nothing)
{
    char b[8];
    CHECK(rg_concat(b, sizeof b, "ab", "/", "cdef"));
    CHECK_EQ_STR(b, "ab/cdef");
    CHECK(!rg_concat(b, sizeof b, "ab", "/", "cdefg"));
    CHECK_EQ_STR(b, ""); /* never a cut-off path */
    CHECK(rg_concat(b, sizeof b, ""));
    CHECK_EQ_STR(b, "");
}

TEST(fd_link_names_the_descriptor)
{
    char l[RG_FD_LINK_MAX];
    rg_fd_link(l, 0);
    CHECK_EQ_STR(l, "/proc/self/fd/0");
    rg_fd_link(l, 4095);
    CHECK_EQ_STR(l, "/proc/self/fd/4095");
    rg_fd_link(l, 2147483647);
    CHECK_EQ_STR(l, "/proc/self/fd/2147483647");
}

int main(void)
{
    RUN(join_relative_onto_base);
    RUN(join_absolute_ignores_base);
    RUN(join_dot_components_vanish);
    RUN(join_dot_alone_is_base);
    RUN(join_dotdot_removes_a_component);
    RUN(join_dotdot_in_base);
    RUN(join_dotdot_past_root_stays_at_root);
    RUN(join_repeated_slashes_fold);
    RUN(join_trailing_slash_is_dropped);
    RUN(join_root_onto_root);
    RUN(join_empty_path_is_base);
    RUN(join_dotdot_prefix_is_a_name);
    RUN(join_too_long_is_false);
    RUN(join_exact_fit);
    RUN(under_child_is_under);
    RUN(under_deep_child_is_under);
    RUN(under_sibling_prefix_is_not_under);
    RUN(under_root_itself_is_under);
    RUN(under_parent_is_not_under);
    RUN(under_other_tree_is_not_under);
    RUN(under_slash_holds_everything);
    RUN(concat_joins_parts_or_writes_nothing);
    RUN(fd_link_names_the_descriptor);
    return check_done();
}
