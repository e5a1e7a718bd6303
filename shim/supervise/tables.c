/* Under --strict the session's own table is sealed by its inode (guard/
 * ctx.h); the user's other sessions' tables are sealed here, by what they
 * begin with. A tree that could rewrite another session's table, or put
 * one of its own making in its place, would unlock files in that session
 * (readguard mark --session does no more), whose next blind write would
 * then go through: the tree would steer every session of its user. A table
 * that a session started inside the tree made while it runs is the tree's
 * own, so readguard run still works in it. Read-opens stay allowed: a
 * mapping that cannot be written steers nothing, and tools list sessions. */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/table.h"
#include "core/text.h"
#include "guard/ctx.h"
#include "os/clock.h"
#include "os/lineage.h"
#include "supervise/supervise.h"

/* The fields that lead a table's header in every version (core/table.h). */
#define LEAD_SIZE (offsetof(struct rg_header, created_ns) + sizeof(int64_t))

/* Could st be a table, other than the session's own? Sizes and modes rule
 * out nearly every file before a byte is read. */
static bool may_be_other(const struct rg_ctx *c, const struct stat *st)
{
    return c->sealed_ino && c->table.hdr && S_ISREG(st->st_mode) &&
           st->st_size >= (off_t)RG_HEADER_SIZE && !rg_ctx_sealed(c, st->st_dev, st->st_ino);
}

/* Was pid, a process of the tree now, alive when a table was made at born
 * (the clock tables are stamped with)? A table made after the session began
 * by a process outside the tree that has since ended names a pid that a
 * process of the tree may take (pids are reused, 32768 of them by default):
 * that one was forked after the table was made, and an exec keeps the
 * fork's start. The start is in clock ticks since boot (/proc/PID/stat's
 * 22nd field, after the 20th space past the comm's ')'), cut down to the
 * tick; RG_TICK_NS of slack covers the two clocks read apart. Unknown: not
 * alive then, so sealed. */
static bool alive_at(int32_t pid, int64_t born)
{
    char path[32], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    for (int field = 0; p && field < 20; field++)
        p = strchr(p + 1, ' ');
    long tick = sysconf(_SC_CLK_TCK);
    if (!p || p[1] < '0' || p[1] > '9' || tick <= 0)
        return false;
    int64_t ticks = 0;
    for (p++; *p >= '0' && *p <= '9' && ticks < INT64_MAX / 1000000000; p++)
        ticks = ticks * 10 + (*p - '0');
    int64_t boot = rg_clock_ns(CLOCK_REALTIME) - rg_clock_ns(CLOCK_BOOTTIME);
    return boot + ticks * (1000000000 / tick) <= born + RG_TICK_NS;
}

/* Does the file open on fd (readable) begin as a table that the tree did
 * not make: before the session began, or by a process outside the tree? */
static bool sealed_lead(const struct rg_ctx *c, int fd)
{
    unsigned char lead[LEAD_SIZE];
    if (pread(fd, lead, sizeof lead, 0) != (ssize_t)sizeof lead ||
        memcmp(lead, RG_MAGIC, sizeof RG_MAGIC - 1) != 0)
        return false;
    int32_t pid;
    int64_t born;
    memcpy(&pid, lead + offsetof(struct rg_header, creator_pid), sizeof pid);
    memcpy(&born, lead + offsetof(struct rg_header, created_ns), sizeof born);
    return !(born > c->table.hdr->created_ns && pid > 0 && rg_descends(pid, (int32_t)getpid()) &&
             alive_at(pid, born));
}

/* The same of dirfd/name, which st (its lstat) describes; a name that no
 * longer holds that file when opened is judged as what it holds. */
static bool sealed_named(const struct rg_ctx *c, int dirfd, const char *name, int nofollow)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | nofollow);
    if (fd < 0)
        return false;
    struct stat st;
    bool sealed = fstat(fd, &st) == 0 && may_be_other(c, &st) && sealed_lead(c, fd);
    close(fd);
    return sealed;
}

bool rg_sv_other_table_fd(const struct rg_ctx *c, int fd, const struct stat *st)
{
    if (!may_be_other(c, st))
        return false;
    /* fd may be write-only: read the file through a descriptor of its own. */
    char link[RG_FD_LINK_MAX];
    rg_fd_link(link, fd);
    return sealed_named(c, AT_FDCWD, link, 0);
}

bool rg_sv_other_table_at(const struct rg_ctx *c, int dirfd, const char *name)
{
    struct stat st;
    return c->sealed_ino && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           may_be_other(c, &st) && sealed_named(c, dirfd, name, O_NOFOLLOW);
}
