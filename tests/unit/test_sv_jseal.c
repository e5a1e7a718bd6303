/* Unit tests for the journal seal's judgement of names (supervise/jseal.c),
 * and its one reading of a directory shared by the names judged in it. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "supervise/supervise.h"
static struct rg_header hdr;
static struct rg_ctx ctx;
static char top[PATH_MAX / 2];

/* A --strict session whose journal is TOP/j, and an O_PATH descriptor of
 * TOP/d (the anchor of a rename's names). */
static int setup(void)
{
    char t[] = "/tmp/rg-jseal-XXXXXX";
    if (!mkdtemp(t))
        return -1;
    char real[PATH_MAX];
    if (!realpath(t, real) || strlen(real) >= sizeof top)
        return -1;
    memcpy(top, real, strlen(real) + 1);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/j", top);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/d", top);
    mkdir(p, 0700);
    snprintf(hdr.journal_dir, sizeof hdr.journal_dir, "%s/j", top);
    ctx.table.hdr = &hdr;
    ctx.sealed_ino = 1;
    return open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void teardown(int fd)
{
    char cmd[PATH_MAX + 16];
    close(fd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", top);
}

TEST(names_are_judged_by_their_directory)
{
    int d = setup();
    CHECK(d >= 0);
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, d, "f"));
    CHECK(!rg_sv_sealed_at(&ctx, d, "g"));
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/j/x", top);
    CHECK_EQ_INT(rg_sv_sealed_at_seen(&ctx, &seen, d, p), RG_SV_JOURNAL);
    snprintf(p, sizeof p, "%s", top);
    CHECK_EQ_INT(rg_sv_sealed_at(&ctx, AT_FDCWD, p), RG_SV_JOURNAL); /* holds the journal */
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, -1, "f"));
    teardown(d);
}

/* The second name of a rename in the same directory is judged on the
 * reading the first took: moving the directory into the journal between
 * the two does not change the answer (the tree's own such move is refused;
 * here the test moves it). A fresh judgement sees the move. */
TEST(names_in_one_directory_share_one_reading)
{
    int d = setup();
    CHECK(d >= 0);
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, d, "from"));
    char was[PATH_MAX], now[PATH_MAX];
    snprintf(was, sizeof was, "%s/d", top);
    snprintf(now, sizeof now, "%s/j/d", top);
    CHECK(rename(was, now) == 0);
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, d, "to"));
    CHECK_EQ_INT(seen.fd, d);
    CHECK(rg_sv_sealed_at(&ctx, d, "to"));
    struct rg_sv_jdir fresh = RG_SV_JDIR_INIT;
    CHECK(rg_sv_sealed_at_seen(&ctx, &fresh, d, "to"));
    teardown(d);
}

/* Another descriptor is read again, not judged on the first one's path. */
TEST(another_directory_is_read_again)
{
    int d = setup();
    CHECK(d >= 0);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/j", top);
    int j = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, d, "f"));
    CHECK(rg_sv_sealed_at_seen(&ctx, &seen, j, "f"));
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, d, "f"));
    close(j);
    teardown(d);
}

/* The refusal says which it is: a directory holding both is the log's. */
TEST(the_log_is_told_from_the_journal)
{
    int d = setup();
    CHECK(d >= 0);
    snprintf(hdr.log_path, sizeof hdr.log_path, "%s/d/log", top);
    ctx.log_sealed = true;
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    CHECK_EQ_INT(rg_sv_sealed_at_seen(&ctx, &seen, d, "log"), RG_SV_LOG);
    CHECK_EQ_INT(rg_sv_sealed_at_seen(&ctx, &seen, d, "other"), RG_SV_UNSEALED);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/j/x", top);
    CHECK_EQ_INT(rg_sv_sealed_at(&ctx, AT_FDCWD, p), RG_SV_JOURNAL);
    CHECK_EQ_INT(rg_sv_sealed_at(&ctx, AT_FDCWD, top), RG_SV_LOG);
    ctx.log_sealed = false;
    hdr.log_path[0] = '\0';
    teardown(d);
}

TEST(no_journal_no_refusal)
{
    int d = setup();
    CHECK(d >= 0);
    ctx.sealed_ino = 0; /* --supervise */
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/j/x", top);
    CHECK(!rg_sv_sealed_at_seen(&ctx, &seen, d, p));
    teardown(d);
}

int main(void)
{
    RUN(names_are_judged_by_their_directory);
    RUN(names_in_one_directory_share_one_reading);
    RUN(another_directory_is_read_again);
    RUN(the_log_is_told_from_the_journal);
    RUN(no_journal_no_refusal);
    return check_done();
}
