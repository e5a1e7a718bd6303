/* Unit tests for request.c: decoding open flags, fopen modes and rename flags. */
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/request.h"
/* --- rg_flags_write ------------------------------------------------------- */

TEST(flags_write_rdonly_is_not_a_write)
{
    CHECK(!rg_flags_write(O_RDONLY));
    CHECK(!rg_flags_write(O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
}

TEST(flags_write_wronly_is_a_write) { CHECK(rg_flags_write(O_WRONLY)); }

TEST(flags_write_rdwr_is_a_write) { CHECK(rg_flags_write(O_RDWR)); }

TEST(flags_write_rdonly_trunc_is_a_write) { CHECK(rg_flags_write(O_RDONLY | O_TRUNC)); }

TEST(flags_write_rdonly_creat_is_not_a_write)
{
    CHECK(!rg_flags_write(O_RDONLY | O_CREAT));
    CHECK(!rg_flags_write(O_RDONLY | O_CREAT | O_EXCL));
}

TEST(flags_write_append_is_a_write) { CHECK(rg_flags_write(O_WRONLY | O_APPEND)); }

TEST(flags_write_o_path_is_not_a_write)
{
    /* open(2): with O_PATH every flag but O_CLOEXEC, O_DIRECTORY and
     * O_NOFOLLOW is ignored. The kernel neither truncates nor opens for
     * writing, and write(2) on the descriptor fails with EBADF. */
    CHECK(!rg_flags_write(O_PATH));
    CHECK(!rg_flags_write(O_PATH | O_WRONLY));
    CHECK(!rg_flags_write(O_PATH | O_RDWR | O_TRUNC));
}

/* --- rg_flags_need_mode --------------------------------------------------- */

TEST(need_mode_for_creat)
{
    CHECK(rg_flags_need_mode(O_CREAT));
    CHECK(rg_flags_need_mode(O_WRONLY | O_CREAT | O_TRUNC));
}

TEST(need_mode_for_tmpfile)
{
    CHECK(rg_flags_need_mode(O_TMPFILE));
    CHECK(rg_flags_need_mode(O_TMPFILE | O_RDWR));
}

TEST(need_mode_not_for_directory_alone)
{
    /* O_TMPFILE is __O_TMPFILE | O_DIRECTORY: sharing a bit is not enough. */
    CHECK((O_TMPFILE & O_DIRECTORY) == O_DIRECTORY);
    CHECK(!rg_flags_need_mode(O_DIRECTORY));
    CHECK(!rg_flags_need_mode(O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
}

TEST(need_mode_not_for_plain_open)
{
    CHECK(!rg_flags_need_mode(O_RDONLY));
    CHECK(!rg_flags_need_mode(O_RDWR | O_TRUNC | O_APPEND));
}

/* --- rg_fopen_flags ------------------------------------------------------- */

/* Decodes mode; returns the flags, or -1 when the mode is rejected. */
static int fopen_flags(const char *mode)
{
    int flags = -12345;
    if (!rg_fopen_flags(mode, &flags))
        return -1;
    return flags;
}

#define W_FLAGS (O_WRONLY | O_CREAT | O_TRUNC)
#define A_FLAGS (O_WRONLY | O_CREAT | O_APPEND)

TEST(fopen_r) { CHECK_EQ_INT(fopen_flags("r"), O_RDONLY); }
TEST(fopen_rb) { CHECK_EQ_INT(fopen_flags("rb"), O_RDONLY); }
TEST(fopen_re) { CHECK_EQ_INT(fopen_flags("re"), O_RDONLY | O_CLOEXEC); }
TEST(fopen_r_plus) { CHECK_EQ_INT(fopen_flags("r+"), O_RDWR); }
TEST(fopen_w) { CHECK_EQ_INT(fopen_flags("w"), W_FLAGS); }
TEST(fopen_w_plus) { CHECK_EQ_INT(fopen_flags("w+"), O_RDWR | O_CREAT | O_TRUNC); }
TEST(fopen_wx) { CHECK_EQ_INT(fopen_flags("wx"), W_FLAGS | O_EXCL); }
TEST(fopen_a) { CHECK_EQ_INT(fopen_flags("a"), A_FLAGS); }
TEST(fopen_a_plus) { CHECK_EQ_INT(fopen_flags("a+"), O_RDWR | O_CREAT | O_APPEND); }
TEST(fopen_rb_plus) { CHECK_EQ_INT(fopen_flags("rb+"), O_RDWR); }
TEST(fopen_r_plus_b) { CHECK_EQ_INT(fopen_flags("r+b"), O_RDWR); }
TEST(fopen_wxe) { CHECK_EQ_INT(fopen_flags("wxe"), W_FLAGS | O_EXCL | O_CLOEXEC); }

TEST(fopen_ccs_suffix_changes_no_flags)
{
    CHECK_EQ_INT(fopen_flags("w,ccs=UTF-8"), W_FLAGS);
    CHECK_EQ_INT(fopen_flags("r+,ccs=UTF-8"), O_RDWR);
    CHECK_EQ_INT(fopen_flags("a,ccs=UTF-8"), A_FLAGS);
}

TEST(fopen_comma_does_not_end_the_mode)
{
    /* glibc's loop stops only at NUL: a ',' is skipped like any unknown
     * letter, so "r,+" opens O_RDWR (checked against glibc 2.36). */
    CHECK_EQ_INT(fopen_flags("r,+"), O_RDWR);
    CHECK_EQ_INT(fopen_flags("r,+xe"), O_RDWR | O_EXCL | O_CLOEXEC);
}

TEST(fopen_unknown_letters_change_nothing)
{
    CHECK_EQ_INT(fopen_flags("rmct"), O_RDONLY);
    CHECK_EQ_INT(fopen_flags("wzq"), W_FLAGS);
}

TEST(fopen_empty_mode_is_rejected) { CHECK_EQ_INT(fopen_flags(""), -1); }
TEST(fopen_unknown_first_letter_is_rejected) { CHECK_EQ_INT(fopen_flags("z"), -1); }
TEST(fopen_plus_first_is_rejected) { CHECK_EQ_INT(fopen_flags("+r"), -1); }

TEST(fopen_reads_the_characters_libc_reads)
{
#ifdef __GLIBC__
    /* glibc looks at mode[1..6]: a '+' at index 6 counts, at index 7 not. */
    CHECK_EQ_INT(fopen_flags("rbbbbb+"), O_RDWR);
    CHECK_EQ_INT(fopen_flags("rbbbbbb+"), O_RDONLY);
    CHECK_EQ_INT(fopen_flags("wbbbbbbx"), W_FLAGS);
    CHECK_EQ_INT(fopen_flags("wbbbbbe"), W_FLAGS | O_CLOEXEC);
    CHECK_EQ_INT(fopen_flags("wbbbbbbbbbbbbbbe"), W_FLAGS);
#else
    /* musl reads the whole mode: a '+' anywhere opens for writing. */
    CHECK_EQ_INT(fopen_flags("rbbbbbb+"), O_RDWR);
    CHECK_EQ_INT(fopen_flags("wbbbbbbbbbbbbbbe"), W_FLAGS | O_CLOEXEC);
#endif
}

/* The oracle: what glibc's own fopen puts on the descriptor. F_GETFL shows
 * the access mode and O_APPEND, F_GETFD shows O_CLOEXEC. */
static int glibc_fd_flags(const char *path, const char *mode)
{
    if (mode[0] == 'w' && strchr(mode, 'x'))
        unlink(path);
    FILE *fp = fopen(path, mode);
    if (!fp)
        return -1;
    int fl = fcntl(fileno(fp), F_GETFL), fd = fcntl(fileno(fp), F_GETFD);
    fclose(fp);
    return (fl & (O_ACCMODE | O_APPEND)) | (fd & FD_CLOEXEC ? O_CLOEXEC : 0);
}

TEST(fopen_matches_glibc)
{
    /* No ",ccs=" mode here: glibc keeps its converter for good, which
     * LeakSanitizer reports; fopen_ccs_suffix_changes_no_flags covers it. */
    static const char *const modes[] = {
        "r",   "rb",  "re",  "r+",   "w",       "w+",       "wx",      "a",
        "a+",  "rb+", "r+b", "wxe",  "rmc",     "w,b+",     "r,+",     "r,+e",
        "a,+", "r,e", "r+e", "ab+e", "rbbbbb+", "rbbbbbb+", "wbbbbbe", "wbbbbbbe",
    };
    char path[] = "/tmp/rg-test-request-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        int want = glibc_fd_flags(path, modes[i]), got = fopen_flags(modes[i]);
        if (got >= 0)
            got &= O_ACCMODE | O_APPEND | O_CLOEXEC;
        if (want != got)
            fprintf(stderr, "#   mode \"%s\": glibc %#x, rg_fopen_flags %#x\n", modes[i],
                    (unsigned)want, (unsigned)got);
        CHECK_EQ_INT(got, want);
    }
    unlink(path);
}

/* --- rg_rename_targets ---------------------------------------------------- */

TEST(rename_plain_writes_new) { CHECK_EQ_INT(rg_rename_targets(0), 1); }
TEST(rename_noreplace_writes_nothing) { CHECK_EQ_INT(rg_rename_targets(RENAME_NOREPLACE), 0); }
TEST(rename_exchange_writes_both) { CHECK_EQ_INT(rg_rename_targets(RENAME_EXCHANGE), 2); }

TEST(rename_flags_the_kernel_takes_are_valid)
{
    CHECK(rg_rename_flags_valid(0));
    CHECK(rg_rename_flags_valid(RENAME_NOREPLACE));
    CHECK(rg_rename_flags_valid(RENAME_EXCHANGE));
    CHECK(rg_rename_flags_valid(RENAME_WHITEOUT));
    CHECK(rg_rename_flags_valid(RENAME_NOREPLACE | RENAME_WHITEOUT));
}

TEST(rename_exchange_with_noreplace_or_whiteout_is_invalid)
{
    CHECK(!rg_rename_flags_valid(RENAME_EXCHANGE | RENAME_NOREPLACE));
    CHECK(!rg_rename_flags_valid(RENAME_EXCHANGE | RENAME_WHITEOUT));
}

TEST(rename_flag_the_kernel_does_not_know_is_invalid)
{
    CHECK(!rg_rename_flags_valid(1u << 3));
    CHECK(!rg_rename_flags_valid(RENAME_NOREPLACE | (1u << 31)));
}

/* --- rg_op_name ----------------------------------------------------------- */

TEST(op_names)
{
    CHECK_EQ_STR(rg_op_name(RG_OP_OPEN), "open");
    CHECK_EQ_STR(rg_op_name(RG_OP_RENAME), "rename");
    CHECK_EQ_STR(rg_op_name(RG_OP_TRUNCATE), "truncate");
    CHECK_EQ_STR(rg_op_name(RG_OP_SPAWN_OPEN), "spawn-open");
    CHECK_EQ_STR(rg_op_name(RG_OP_UNLINK), "unlink");
    CHECK_EQ_STR(rg_op_name((enum rg_op)99), "?");
}

TEST(backup_names_are_the_base_and_a_backup_suffix)
{
    CHECK(rg_backup_name("f", "f.bak"));
    CHECK(rg_backup_name("dir/p.txt", "dir/p.txt.orig"));
    CHECK(rg_backup_name("e", "e~"));
    CHECK(rg_backup_name("/a/b.c", "/a/b.c.old"));
}

TEST(other_names_are_not_backups)
{
    CHECK(!rg_backup_name("f", "f"));
    CHECK(!rg_backup_name("f", "f.bak2"));
    CHECK(!rg_backup_name("f", "g.bak"));
    CHECK(!rg_backup_name("f", "f.tmp"));
    CHECK(!rg_backup_name("f", "ff.bak"));
    CHECK(!rg_backup_name("f.bak", "f"));
    CHECK(!rg_backup_name("dir/", "dir/.bak"));
    CHECK(!rg_backup_name("", ".bak"));
    CHECK(!rg_backup_name("f", "f/.bak"));
}

TEST(a_backup_names_base_is_the_name_less_its_suffix)
{
    CHECK(rg_backup_base_len("/w/a.txt.orig") == strlen("/w/a.txt"));
    CHECK(rg_backup_base_len("f.bak") == 1);
    CHECK(rg_backup_base_len("e~") == 1);
    CHECK(rg_backup_base_len("d/x.old") == 3);
    CHECK(rg_backup_base_len("f.bak2") == 0);
    CHECK(rg_backup_base_len("f") == 0);
    CHECK(rg_backup_base_len(".orig") == 0);
    CHECK(rg_backup_base_len("d/.orig") == 0);
    CHECK(rg_backup_base_len("~") == 0);
}

int main(void)
{
    RUN(backup_names_are_the_base_and_a_backup_suffix);
    RUN(other_names_are_not_backups);
    RUN(a_backup_names_base_is_the_name_less_its_suffix);
    RUN(flags_write_rdonly_is_not_a_write);
    RUN(flags_write_wronly_is_a_write);
    RUN(flags_write_rdwr_is_a_write);
    RUN(flags_write_rdonly_trunc_is_a_write);
    RUN(flags_write_rdonly_creat_is_not_a_write);
    RUN(flags_write_append_is_a_write);
    RUN(flags_write_o_path_is_not_a_write);
    RUN(need_mode_for_creat);
    RUN(need_mode_for_tmpfile);
    RUN(need_mode_not_for_directory_alone);
    RUN(need_mode_not_for_plain_open);
    RUN(fopen_r);
    RUN(fopen_rb);
    RUN(fopen_re);
    RUN(fopen_r_plus);
    RUN(fopen_w);
    RUN(fopen_w_plus);
    RUN(fopen_wx);
    RUN(fopen_a);
    RUN(fopen_a_plus);
    RUN(fopen_rb_plus);
    RUN(fopen_r_plus_b);
    RUN(fopen_wxe);
    RUN(fopen_ccs_suffix_changes_no_flags);
    RUN(fopen_comma_does_not_end_the_mode);
    RUN(fopen_unknown_letters_change_nothing);
    RUN(fopen_empty_mode_is_rejected);
    RUN(fopen_unknown_first_letter_is_rejected);
    RUN(fopen_plus_first_is_rejected);
    RUN(fopen_matches_glibc);
    RUN(fopen_reads_the_characters_libc_reads);
    RUN(rename_plain_writes_new);
    RUN(rename_noreplace_writes_nothing);
    RUN(rename_exchange_writes_both);
    RUN(rename_flags_the_kernel_takes_are_valid);
    RUN(rename_exchange_with_noreplace_or_whiteout_is_invalid);
    RUN(rename_flag_the_kernel_does_not_know_is_invalid);
    RUN(op_names);
    return check_done();
}
