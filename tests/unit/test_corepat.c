/* rg_core_names_file: whether a crash's core dump replaces a file by name. */
#include "core/corepat.h"

#include "check.h"
TEST(a_pattern_naming_a_file_replaces_one)
{
    CHECK(rg_core_names_file("core\n"));
    CHECK(rg_core_names_file("core.%p"));
    CHECK(rg_core_names_file("%e.core\n"));
    CHECK(rg_core_names_file("/var/crash/core.%e.%p\n"));
}

TEST(a_pipe_or_nothing_replaces_no_file)
{
    CHECK(!rg_core_names_file("|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h\n"));
    CHECK(!rg_core_names_file(""));
    CHECK(!rg_core_names_file("\n"));
}

TEST(an_unread_pattern_counts_as_a_file) { CHECK(rg_core_names_file(NULL)); }

int main(void)
{
    RUN(a_pattern_naming_a_file_replaces_one);
    RUN(a_pipe_or_nothing_replaces_no_file);
    RUN(an_unread_pattern_counts_as_a_file);
    return check_done();
}
