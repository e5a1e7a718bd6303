/* Unit tests for procmaps.c: one line of /proc/PID/maps. */
#include "check.h"
#include "core/procmaps.h"
#include <sys/sysmacros.h>

static struct rg_mapping m;

TEST(a_shared_table_gives_its_perms_device_inode_and_path)
{
    CHECK(rg_maps_line("7f0000000000-7f0004000000 rw-s 00000000 fd:01 1234567   "
                       "/tmp/readguard-0/session",
                       &m));
    CHECK_EQ_STR(m.perms, "rw-s");
    CHECK(m.dev == makedev(0xfd, 0x01));
    CHECK(m.ino == 1234567);
    CHECK_EQ_STR(m.path, "/tmp/readguard-0/session");
}

TEST(a_device_number_is_hex_and_an_inode_decimal)
{
    CHECK(rg_maps_line("0-1 r--p 00000000 103:0a 10 /x", &m));
    CHECK(m.dev == makedev(0x103, 0x0a));
    CHECK(m.ino == 10);
}

TEST(an_anonymous_mapping_has_an_empty_path)
{
    CHECK(rg_maps_line("7ffd0000-7ffd2000 rw-p 00000000 00:00 0", &m));
    CHECK(m.ino == 0);
    CHECK_EQ_STR(m.path, "");
}

TEST(a_pseudo_path_is_given_as_it_stands)
{
    CHECK(rg_maps_line("7ffd0000-7ffd2000 rw-p 00000000 00:00 0                  [stack]", &m));
    CHECK_EQ_STR(m.path, "[stack]");
}

TEST(a_path_with_spaces_is_given_whole)
{
    CHECK(rg_maps_line("0-1 rw-s 00000000 08:01 5 /tmp/a b (deleted)", &m));
    CHECK_EQ_STR(m.path, "/tmp/a b (deleted)");
}

TEST(text_that_is_not_a_maps_line_is_refused)
{
    CHECK(!rg_maps_line("", &m));
    CHECK(!rg_maps_line("0-1", &m));
    CHECK(!rg_maps_line("0-1 rw-s", &m));
    CHECK(!rg_maps_line("0-1 rw-s 0 08:01", &m));
    CHECK(!rg_maps_line("0-1 rw-s 0 0801 5 /x", &m));
    CHECK(!rg_maps_line("0-1 rw-s 0 08:01 x5 /x", &m));
    CHECK(!rg_maps_line("0-1 rw-s 0 08: 5 /x", &m));
    CHECK(!rg_maps_line("0-1 rw-s 0 -8:01 5 /x", &m));
    CHECK(!rg_maps_line("0-1 rw-s 0 08:01  5 /x", &m));
    CHECK(!rg_maps_line("0-1 rws 0 08:01 5 /x", &m));
}

/* /proc/PID/stat up to its flags: pid (comm) state ppid pgrp session tty
 * tpgid flags. */
TEST(an_empty_command_line_may_be_an_exec_only_in_a_live_user_process)
{
    CHECK(rg_stat_may_exec("4451 (cc1) R 4450 4440 4440 0 -1 4194304 120 0 0 0"));
    CHECK(rg_stat_may_exec("7 (a) b) D 1 7 7 0 -1 4194560 0"));
    /* Exiting (PF_EXITING): seen for seconds while a big process's memory
     * goes back, and never a member. */
    CHECK(!rg_stat_may_exec("4451 (cc1) R 4450 4440 4440 0 -1 4194308 120 0 0 0"));
    CHECK(!rg_stat_may_exec("4451 (aclocal) D 1 4440 4440 0 -1 1077936196 9"));
    CHECK(!rg_stat_may_exec("4451 (cc1) Z 4450 4440 4440 0 -1 4194304 120"));
    CHECK(!rg_stat_may_exec("4451 (cc1) X 4450 4440 4440 0 -1 4194304 120"));
    CHECK(!rg_stat_may_exec("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0"));
    CHECK(!rg_stat_may_exec("4451 (cc1) R 4450 4440"));
    CHECK(!rg_stat_may_exec("4451 (cc1"));
    CHECK(!rg_stat_may_exec(""));
}

int main(void)
{
    RUN(a_shared_table_gives_its_perms_device_inode_and_path);
    RUN(a_device_number_is_hex_and_an_inode_decimal);
    RUN(an_anonymous_mapping_has_an_empty_path);
    RUN(a_pseudo_path_is_given_as_it_stands);
    RUN(a_path_with_spaces_is_given_whole);
    RUN(text_that_is_not_a_maps_line_is_refused);
    RUN(an_empty_command_line_may_be_an_exec_only_in_a_live_user_process);
    return check_done();
}
