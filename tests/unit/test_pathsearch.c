/* Unit tests for core/pathsearch.c: glibc's execvpe search, name by name. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "core/pathsearch.h"

/* The names a search of path for file tries, joined by '|'. */
static const char *tried(const char *path, const char *file)
{
    static char out[4 * RG_SEARCH_BUF];
    char buf[RG_SEARCH_BUF];
    struct rg_search s;
    out[0] = '\0';
    if (rg_search_start(&s, path, file) != 0)
        return NULL;
    while (rg_search_next(&s, buf)) {
        if (out[0])
            strcat(out, "|");
        strcat(out, buf);
    }
    return out;
}

TEST(each_element_in_order) { CHECK_EQ_STR(tried("/a:/b/c:/d", "ls"), "/a/ls|/b/c/ls|/d/ls"); }

TEST(unset_path_is_bin_and_usr_bin) { CHECK_EQ_STR(tried(NULL, "ls"), "/bin/ls|/usr/bin/ls"); }

TEST(empty_elements_are_the_working_directory)
{
    CHECK_EQ_STR(tried("", "ls"), "ls");
    CHECK_EQ_STR(tried(":/a", "ls"), "ls|/a/ls");
    CHECK_EQ_STR(tried("/a::/b", "ls"), "/a/ls|ls|/b/ls");
    CHECK_EQ_STR(tried("/a:", "ls"), "/a/ls|ls");
}

TEST(a_file_longer_than_name_max_is_refused)
{
    char name[NAME_MAX + 2];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    struct rg_search s;
    CHECK_EQ_INT(rg_search_start(&s, "/a", name), ENAMETOOLONG);
    name[NAME_MAX] = '\0';
    CHECK_EQ_INT(rg_search_start(&s, "/a", name), 0);
}

/* glibc passes over an element too long for its buffer by going on from
 * the ':' after it, which then reads as an empty element. */
TEST(an_overlong_element_reads_as_the_working_directory)
{
    size_t n = PATH_MAX + 10;
    char *path = malloc(n + 8);
    path[0] = '/';
    memset(path + 1, 'd', n - 1);
    strcpy(path + n, ":/b");
    CHECK_EQ_STR(tried(path, "ls"), "ls|/b/ls");
    path[n] = '\0';
    CHECK_EQ_STR(tried(path, "ls"), "");
    free(path);
}

TEST(missing_or_forbidden_files_let_the_search_go_on)
{
    CHECK(rg_search_goes_on(ENOENT));
    CHECK(rg_search_goes_on(EACCES));
    CHECK(rg_search_goes_on(ENOTDIR));
    CHECK(rg_search_goes_on(ESTALE));
    CHECK(rg_search_goes_on(ENODEV));
    CHECK(rg_search_goes_on(ETIMEDOUT));
    CHECK(!rg_search_goes_on(ELOOP));
    CHECK(!rg_search_goes_on(ENOEXEC));
    CHECK(!rg_search_goes_on(E2BIG));
    CHECK(!rg_search_goes_on(ETXTBSY));
}

TEST(the_shell_gets_the_file_and_the_arguments_after_argv0)
{
    char *argv[] = {"prog", "x", "y", NULL};
    CHECK_EQ_INT(rg_script_slots(argv), 5);
    char *out[5];
    rg_script_argv("/a/prog", argv, out);
    CHECK_EQ_STR(out[0], RG_SCRIPT_SHELL);
    CHECK_EQ_STR(out[1], "/a/prog");
    CHECK_EQ_STR(out[2], "x");
    CHECK_EQ_STR(out[3], "y");
    CHECK(out[4] == NULL);
}

TEST(the_shell_gets_the_file_alone_without_arguments)
{
    char *one[] = {"prog", NULL}, *none[] = {NULL};
    char *out[3];
    CHECK_EQ_INT(rg_script_slots(one), 3);
    rg_script_argv("prog", one, out);
    CHECK_EQ_STR(out[1], "prog");
    CHECK(out[2] == NULL);
    CHECK_EQ_INT(rg_script_slots(none), 3);
    rg_script_argv("prog", none, out);
    CHECK_EQ_STR(out[1], "prog");
    CHECK(out[2] == NULL);
}

int main(void)
{
    RUN(each_element_in_order);
    RUN(unset_path_is_bin_and_usr_bin);
    RUN(empty_elements_are_the_working_directory);
    RUN(a_file_longer_than_name_max_is_refused);
    RUN(an_overlong_element_reads_as_the_working_directory);
    RUN(missing_or_forbidden_files_let_the_search_go_on);
    RUN(the_shell_gets_the_file_and_the_arguments_after_argv0);
    RUN(the_shell_gets_the_file_alone_without_arguments);
    return check_done();
}
