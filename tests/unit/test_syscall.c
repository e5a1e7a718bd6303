/* Unit tests for core/syscall.c: each guarded system call decoded from its
 * argument registers, as the syscall() hook and the supervisor see it. */
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#include "check.h"
#include "core/syscall.h"
#define PATH_A 0x7ffd1000u
#define PATH_B 0x7ffd2000u

static struct rg_syscall decode(long nr, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e)
{
    uint64_t args[6] = {a, b, c, d, e, 0xdeadbeef};
    struct rg_syscall sc;
    CHECK(rg_syscall_decode(nr, args, &sc));
    CHECK_EQ_INT(sc.nr, nr);
    return sc;
}

#ifdef SYS_open
TEST(open_is_path_flags_mode)
{
    struct rg_syscall sc = decode(SYS_open, PATH_A, O_WRONLY | O_TRUNC, 0640, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_OPEN);
    CHECK_EQ_STR(sc.name, "open");
    CHECK_EQ_STR(sc.via_syscall, "syscall(SYS_open)");
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.flags, O_WRONLY | O_TRUNC);
    CHECK_EQ_INT(sc.mode, 0640);
    CHECK(!sc.flags_in_memory);
}
#endif

#ifdef SYS_creat
TEST(creat_is_an_open_for_writing_that_truncates)
{
    struct rg_syscall sc = decode(SYS_creat, PATH_A, 0600, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_OPEN);
    CHECK_EQ_STR(sc.name, "creat");
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.flags, O_CREAT | O_WRONLY | O_TRUNC);
    CHECK_EQ_INT(sc.mode, 0600);
}
#endif

TEST(openat_is_dirfd_path_flags_mode)
{
    struct rg_syscall sc = decode(SYS_openat, 5, PATH_A, O_RDWR | O_CREAT, 0644, 7);
    CHECK_EQ_INT(sc.op, RG_OP_OPEN);
    CHECK_EQ_STR(sc.name, "openat");
    CHECK_EQ_STR(sc.via_syscall, "syscall(SYS_openat)");
    CHECK_EQ_INT(sc.dirfd, 5);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.flags, O_RDWR | O_CREAT);
    CHECK_EQ_INT(sc.mode, 0644);
}

TEST(openat_takes_at_fdcwd_as_given)
{
    struct rg_syscall sc = decode(SYS_openat, (uint64_t)(int64_t)AT_FDCWD, PATH_A, 0, 0, 0);
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
}

TEST(openat2_leaves_flags_in_memory)
{
    struct rg_syscall sc = decode(SYS_openat2, 3, PATH_A, PATH_B, 24, 7);
    CHECK_EQ_INT(sc.op, RG_OP_OPEN);
    CHECK_EQ_STR(sc.name, "openat2");
    CHECK_EQ_INT(sc.dirfd, 3);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK(sc.flags_in_memory);
    CHECK_EQ_INT(sc.how, PATH_B);
    CHECK_EQ_INT(sc.how_size, 24);
    CHECK_EQ_INT(sc.flags, 0);
}

#ifdef SYS_rename
TEST(rename_writes_its_second_path)
{
    struct rg_syscall sc = decode(SYS_rename, PATH_A, PATH_B, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_RENAME);
    CHECK_EQ_STR(sc.name, "rename");
    CHECK_EQ_INT(sc.olddirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.oldpath, PATH_A);
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_B);
    CHECK_EQ_INT(sc.flags, 0);
}
#endif

#ifdef SYS_renameat
TEST(renameat_has_a_directory_for_each_path)
{
    struct rg_syscall sc = decode(SYS_renameat, 3, PATH_A, 4, PATH_B, 7);
    CHECK_EQ_INT(sc.op, RG_OP_RENAME);
    CHECK_EQ_STR(sc.name, "renameat");
    CHECK_EQ_INT(sc.olddirfd, 3);
    CHECK_EQ_INT(sc.oldpath, PATH_A);
    CHECK_EQ_INT(sc.dirfd, 4);
    CHECK_EQ_INT(sc.path, PATH_B);
    CHECK_EQ_INT(sc.flags, 0);
}
#endif

TEST(renameat2_adds_its_flags)
{
    struct rg_syscall sc = decode(SYS_renameat2, 3, PATH_A, 4, PATH_B, RENAME_EXCHANGE);
    CHECK_EQ_INT(sc.op, RG_OP_RENAME);
    CHECK_EQ_STR(sc.name, "renameat2");
    CHECK_EQ_STR(sc.via_syscall, "syscall(SYS_renameat2)");
    CHECK_EQ_INT(sc.olddirfd, 3);
    CHECK_EQ_INT(sc.oldpath, PATH_A);
    CHECK_EQ_INT(sc.dirfd, 4);
    CHECK_EQ_INT(sc.path, PATH_B);
    CHECK_EQ_INT(sc.flags, RENAME_EXCHANGE);
}

TEST(linkat_is_both_names_and_its_flags)
{
    struct rg_syscall sc = decode(SYS_linkat, 3, PATH_A, 4, PATH_B, AT_SYMLINK_FOLLOW);
    CHECK_EQ_INT(sc.op, RG_OP_LINK);
    CHECK_EQ_STR(sc.name, "linkat");
    CHECK_EQ_INT(sc.olddirfd, 3);
    CHECK_EQ_INT(sc.oldpath, PATH_A);
    CHECK_EQ_INT(sc.dirfd, 4);
    CHECK_EQ_INT(sc.path, PATH_B);
    CHECK_EQ_INT(sc.flags, AT_SYMLINK_FOLLOW);
}

#ifdef SYS_link
TEST(link_is_both_names_from_the_cwd)
{
    struct rg_syscall sc = decode(SYS_link, PATH_A, PATH_B, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_LINK);
    CHECK_EQ_INT(sc.olddirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.oldpath, PATH_A);
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_B);
    CHECK_EQ_INT(sc.flags, 0);
}
#endif

TEST(truncate_is_path_and_length)
{
    struct rg_syscall sc = decode(SYS_truncate, PATH_A, 4096, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_TRUNCATE);
    CHECK_EQ_STR(sc.name, "truncate");
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.length, 4096);
}

TEST(truncate_keeps_a_negative_length_negative)
{
    struct rg_syscall sc = decode(SYS_truncate, PATH_A, (uint64_t)-1, 0, 0, 0);
    CHECK_EQ_INT(sc.length, -1);
}

TEST(unlinkat_is_dirfd_path_and_its_flags)
{
    struct rg_syscall sc = decode(SYS_unlinkat, 3, PATH_A, AT_REMOVEDIR, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_UNLINK);
    CHECK_EQ_STR(sc.name, "unlinkat");
    CHECK_EQ_STR(sc.via_syscall, "syscall(SYS_unlinkat)");
    CHECK_EQ_INT(sc.dirfd, 3);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.flags, AT_REMOVEDIR);
}

#ifdef SYS_unlink
TEST(unlink_is_a_path_from_the_cwd)
{
    struct rg_syscall sc = decode(SYS_unlink, PATH_A, 7, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_UNLINK);
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.flags, 0);
}
#endif

TEST(other_calls_are_not_decoded)
{
    uint64_t args[6] = {0};
    struct rg_syscall sc;
    long others[] = {SYS_read, SYS_write, SYS_ftruncate, SYS_rmdir, SYS_close, -1, 100000};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        CHECK(!rg_syscall_decode(others[i], args, &sc));
}

#ifdef SYS_chmod
TEST(chmod_is_a_metadata_change_of_a_path)
{
    struct rg_syscall sc = decode(SYS_chmod, PATH_A, 0600, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_META);
    CHECK_EQ_STR(sc.name, "chmod");
    CHECK_EQ_INT(sc.dirfd, AT_FDCWD);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.mode, 0600);
    CHECK_EQ_INT(sc.flags, 0);
}
#endif

TEST(fchmod_names_its_file_by_descriptor_only)
{
    struct rg_syscall sc = decode(SYS_fchmod, 5, 0640, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_META);
    CHECK_EQ_INT(sc.dirfd, 5);
    CHECK_EQ_INT(sc.path, 0);
    CHECK_EQ_INT(sc.mode, 0640);
}

#ifdef SYS_lchown
TEST(lchown_implies_not_following_a_symlink)
{
    struct rg_syscall sc = decode(SYS_lchown, PATH_A, 1000, 100, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_META);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.owner, 1000);
    CHECK_EQ_INT(sc.group, 100);
    CHECK_EQ_INT(sc.flags, AT_SYMLINK_NOFOLLOW);
}
#endif

TEST(fchownat_keeps_an_id_left_as_it_is)
{
    struct rg_syscall sc = decode(SYS_fchownat, 5, PATH_A, (uint32_t)-1, 100, AT_EMPTY_PATH);
    CHECK_EQ_INT(sc.op, RG_OP_META);
    CHECK_EQ_INT(sc.dirfd, 5);
    CHECK_EQ_INT(sc.owner, (uint32_t)-1);
    CHECK_EQ_INT(sc.group, 100);
    CHECK_EQ_INT(sc.flags, AT_EMPTY_PATH);
}

TEST(utimensat_leaves_its_times_in_memory)
{
    struct rg_syscall sc = decode(SYS_utimensat, 5, 0, PATH_B, AT_SYMLINK_NOFOLLOW, 7);
    CHECK_EQ_INT(sc.op, RG_OP_META);
    CHECK_EQ_STR(sc.via_syscall, "syscall(SYS_utimensat)");
    CHECK_EQ_INT(sc.dirfd, 5);
    CHECK_EQ_INT(sc.path, 0);
    CHECK_EQ_INT(sc.times, PATH_B);
    CHECK_EQ_INT(sc.flags, AT_SYMLINK_NOFOLLOW);
}

TEST(fsetxattr_names_its_file_by_descriptor_and_leaves_name_and_value_in_memory)
{
    struct rg_syscall sc = decode(SYS_fsetxattr, 5, PATH_A, PATH_B, 12, XATTR_CREATE);
    CHECK_EQ_INT(sc.op, RG_OP_XATTR);
    CHECK_EQ_INT(sc.dirfd, 5);
    CHECK_EQ_INT(sc.path, 0);
    CHECK_EQ_INT(sc.xname, PATH_A);
    CHECK_EQ_INT(sc.xvalue, PATH_B);
    CHECK_EQ_INT(sc.xsize, 12);
    CHECK_EQ_INT(sc.xflags, XATTR_CREATE);
    CHECK_EQ_INT(sc.flags, 0);
}

TEST(lremovexattr_implies_not_following_a_symlink)
{
    struct rg_syscall sc = decode(SYS_lremovexattr, PATH_A, PATH_B, 7, 7, 7);
    CHECK_EQ_INT(sc.op, RG_OP_XATTR);
    CHECK_EQ_INT(sc.path, PATH_A);
    CHECK_EQ_INT(sc.xname, PATH_B);
    CHECK_EQ_INT(sc.xvalue, 0);
    CHECK_EQ_INT(sc.flags, AT_SYMLINK_NOFOLLOW);
}

TEST(every_listed_call_decodes_to_a_guarded_op_once)
{
    long nrs[] = {
#define RG_SYSCALL(name, ...) SYS_##name,
#include "core/syscalls.def"
#undef RG_SYSCALL
    };
    uint64_t args[6] = {0};
    for (size_t i = 0; i < sizeof nrs / sizeof *nrs; i++) {
        struct rg_syscall sc;
        CHECK(rg_syscall_decode(nrs[i], args, &sc));
        CHECK(sc.op == RG_OP_OPEN || sc.op == RG_OP_RENAME || sc.op == RG_OP_LINK ||
              sc.op == RG_OP_TRUNCATE || sc.op == RG_OP_UNLINK || sc.op == RG_OP_META ||
              sc.op == RG_OP_XATTR);
        for (size_t j = 0; j < i; j++)
            CHECK(nrs[j] != nrs[i]);
    }
}

int main(void)
{
#ifdef SYS_open
    RUN(open_is_path_flags_mode);
#endif
#ifdef SYS_creat
    RUN(creat_is_an_open_for_writing_that_truncates);
#endif
    RUN(openat_is_dirfd_path_flags_mode);
    RUN(openat_takes_at_fdcwd_as_given);
    RUN(openat2_leaves_flags_in_memory);
#ifdef SYS_rename
    RUN(rename_writes_its_second_path);
#endif
#ifdef SYS_renameat
    RUN(renameat_has_a_directory_for_each_path);
#endif
    RUN(renameat2_adds_its_flags);
    RUN(linkat_is_both_names_and_its_flags);
#ifdef SYS_link
    RUN(link_is_both_names_from_the_cwd);
#endif
    RUN(truncate_is_path_and_length);
    RUN(truncate_keeps_a_negative_length_negative);
    RUN(unlinkat_is_dirfd_path_and_its_flags);
#ifdef SYS_unlink
    RUN(unlink_is_a_path_from_the_cwd);
#endif
    RUN(other_calls_are_not_decoded);
#ifdef SYS_chmod
    RUN(chmod_is_a_metadata_change_of_a_path);
#endif
    RUN(fchmod_names_its_file_by_descriptor_only);
#ifdef SYS_lchown
    RUN(lchown_implies_not_following_a_symlink);
#endif
    RUN(fchownat_keeps_an_id_left_as_it_is);
    RUN(utimensat_leaves_its_times_in_memory);
    RUN(fsetxattr_names_its_file_by_descriptor_and_leaves_name_and_value_in_memory);
    RUN(lremovexattr_implies_not_following_a_symlink);
    RUN(every_listed_call_decodes_to_a_guarded_op_once);
    return check_done();
}
