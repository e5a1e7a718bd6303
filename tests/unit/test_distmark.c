/* Unit tests for core/distmark.c: a tarball make dist or npm pack wrote,
 * by its name and its compressor's magic, and what else may be named so. */
#include <string.h>

#include "check.h"
#include "core/distmark.h"
static const char gz[] = "\x1f\x8b\x08\x00\x00\x00";
static const char xz[] = "\xfd\x37\x7a\x58\x5a\x00";

TEST(packers_tarballs_are_marked_by_name_and_magic)
{
    CHECK(rg_dist_tarball("amx-1.0.tar.gz", gz, 6));
    CHECK(rg_dist_tarball("tiny-1.0.0.tgz", gz, 6));
    CHECK(rg_dist_tarball("scope-tiny-1.0.0-beta.1.tgz", gz, 6));
    CHECK(rg_dist_tarball("tiny-v1.0.0.tgz", gz, 6)); /* yarn 1 */
    CHECK(rg_dist_tarball("package.tgz", gz, 6));     /* yarn 2 and later */
    CHECK(rg_dist_tarball("amx-1.0.tar.xz", xz, 6));
    CHECK(rg_dist_tarball("amx-1.0.tar.bz2", "BZh91AY", 7));
    CHECK(rg_dist_tarball("amx-1.0.tar.zst", "\x28\xb5\x2f\xfd\x00", 5));
}

TEST(a_name_without_a_version_or_another_archive_is_not)
{
    CHECK(!rg_dist_tarball("notes.tar.gz", gz, 6));
    CHECK(!rg_dist_tarball("backup-old.tgz", gz, 6));
    CHECK(!rg_dist_tarball("backup-v.tgz", gz, 6));
    CHECK(!rg_dist_tarball("backup-vx1.tgz", gz, 6));
    CHECK(!rg_dist_tarball("package.tgz", "not gzip", 8));
    CHECK(!rg_dist_tarball("mypackage.tgz", gz, 6));
    CHECK(!rg_dist_tarball("-1.0.tgz", gz, 6));
    CHECK(!rg_dist_tarball("amx-.tgz", gz, 6));
    CHECK(!rg_dist_tarball(".tgz", gz, 6));
    CHECK(!rg_dist_tarball("amx-1.0.tar", gz, 6));
    CHECK(!rg_dist_tarball("amx-1.0.tgz.txt", gz, 6));
}

TEST(the_bytes_must_be_the_extensions_compressor)
{
    CHECK(!rg_dist_tarball("amx-1.0.tar.gz", "amx 1.0\n", 8));
    CHECK(!rg_dist_tarball("amx-1.0.tar.gz", xz, 6));
    CHECK(!rg_dist_tarball("amx-1.0.tar.xz", xz, 5)); /* cut short */
    CHECK(!rg_dist_tarball("amx-1.0.tar.xz", "\xfd\x37\x7a\x58\x5a\x01", 6));
    CHECK(!rg_dist_tarball("amx-1.0.tgz", gz, 2));
    CHECK(!rg_dist_tarball("amx-1.0.tgz", "", 0));
}

int main(void)
{
    RUN(packers_tarballs_are_marked_by_name_and_magic);
    RUN(a_name_without_a_version_or_another_archive_is_not);
    RUN(the_bytes_must_be_the_extensions_compressor);
    return check_done();
}
