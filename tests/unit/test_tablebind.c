/* Unit tests for the binding of a session to its table's file: a process
 * joins the table at its path only if it is the file the session was
 * handed with, and a binding for another path, or none, binds nothing. */
#include "check.h"
#include "core/tablebind.h"

#define PATH "/home/u/agent/table"

static enum rg_tablebind bound(const char *path, uint64_t dev, uint64_t ino)
{
    char b[RG_TABLEBIND_MAX];
    rg_tablebind_format(b, PATH, 0x803, 1234567);
    return rg_tablebind_check(b, path, dev, ino);
}

TEST(the_same_file_at_the_path_matches)
{
    CHECK_EQ_INT(bound(PATH, 0x803, 1234567), RG_BIND_MATCH);
}

TEST(another_inode_at_the_path_is_a_mismatch)
{
    CHECK_EQ_INT(bound(PATH, 0x803, 1234568), RG_BIND_MISMATCH);
}

TEST(another_device_at_the_path_is_a_mismatch)
{
    CHECK_EQ_INT(bound(PATH, 0x804, 1234567), RG_BIND_MISMATCH);
}

TEST(another_path_is_not_bound) { CHECK_EQ_INT(bound(PATH "2", 1, 2), RG_BIND_NONE); }

TEST(no_binding_binds_nothing) { CHECK_EQ_INT(rg_tablebind_check(NULL, PATH, 1, 2), RG_BIND_NONE); }

TEST(a_value_that_is_no_binding_binds_nothing)
{
    char b[RG_TABLEBIND_MAX];
    rg_tablebind_format(b, PATH, 0x803, 1234567);
    const char *bad[] = {"", "803:12d687", "0000000000000803", "x", "0000000000000803:"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_EQ_INT(rg_tablebind_check(bad[i], PATH, 1, 2), RG_BIND_NONE);
    b[RG_TABLEBIND_MAX - 3] = '\0'; /* cut short */
    CHECK_EQ_INT(rg_tablebind_check(b, PATH, 1, 2), RG_BIND_NONE);
    rg_tablebind_format(b, PATH, 0x803, 1234567);
    b[3] = 'G'; /* not a hex digit */
    CHECK_EQ_INT(rg_tablebind_check(b, PATH, 1, 2), RG_BIND_NONE);
}

TEST(the_largest_numbers_fit)
{
    char b[RG_TABLEBIND_MAX];
    rg_tablebind_format(b, PATH, UINT64_MAX, UINT64_MAX);
    CHECK_EQ_INT(strlen(b), RG_TABLEBIND_MAX - 1);
    CHECK_EQ_INT(rg_tablebind_check(b, PATH, UINT64_MAX, UINT64_MAX), RG_BIND_MATCH);
}

int main(void)
{
    RUN(the_same_file_at_the_path_matches);
    RUN(another_inode_at_the_path_is_a_mismatch);
    RUN(another_device_at_the_path_is_a_mismatch);
    RUN(another_path_is_not_bound);
    RUN(no_binding_binds_nothing);
    RUN(a_value_that_is_no_binding_binds_nothing);
    RUN(the_largest_numbers_fit);
    return check_done();
}
