#include "guard/journal/copy.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/sha256.h"
#include "core/table.h"
#include "core/text.h"
#include "os/sys.h"
/* Small enough for any thread's stack, large enough to copy at disk speed. */
#define COPY_BUF 8192

/* A file in objects/ to copy into, not yet visible under any name.
 * tmp receives the dot-name when the filesystem has no O_TMPFILE. */
static int open_scratch(const char *objects, char *tmp, size_t cap)
{
    tmp[0] = '\0';
    int fd = rg_sys_openat(AT_FDCWD, objects, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd == -ENOENT && (fd = rg_jdir_make(objects)) == 0)
        fd = rg_sys_openat(AT_FDCWD, objects, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd != -EOPNOTSUPP && fd != -EISDIR && fd != -EINVAL)
        return fd;
    /* Process-wide, as the pid beside it: unique among all the process's
     * contexts (the supervisor has one per handler thread). */
    static _Atomic unsigned seq;
    snprintf(tmp, cap, "%s/.tmp-%d-%u", objects, (int)rg_sys_getpid(), atomic_fetch_add(&seq, 1));
    return rg_sys_openat(AT_FDCWD, tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

/* A reflink where the filesystem shares extents, else a kernel copy, else
 * read and write. */
int rg_jcopy_bytes(int src, int dst, int64_t size)
{
    if (rg_syscall6(SYS_ioctl, dst, FICLONE, src, 0, 0, 0) == 0)
        return 0;
    loff_t in = 0, out = 0;
    while (in < size) {
        long n =
            rg_syscall6(SYS_copy_file_range, src, (long)&in, dst, (long)&out, (long)(size - in), 0);
        if (n == 0)
            return 0;
        if (n < 0) {
            if (in > 0 || (n != -EXDEV && n != -EINVAL && n != -ENOSYS && n != -EOPNOTSUPP))
                return (int)n;
            break;
        }
    }
    if (in >= size)
        return 0;
    /* No further than size, as copy_file_range: a file another process
     * grows meanwhile (truncate -s takes no room) would have its zeros
     * written into the journal, past the per-file cap, until it is full. */
    char buf[COPY_BUF];
    for (off_t off = 0; off < size;) {
        size_t want = size - off < (int64_t)sizeof buf ? (size_t)(size - off) : sizeof buf;
        ssize_t n = pread(src, buf, want, off);
        if (n <= 0)
            return n < 0 ? -errno : 0;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = pwrite(dst, buf + done, (size_t)(n - done), off + done);
            if (w < 0)
                return -errno;
            done += w;
        }
        off += n;
    }
    return 0;
}

/* Names the copy by its bytes, read back from the copy itself: the source
 * may be changing under a writer outside the session. */
static int hash_copy(int fd, char hex[RG_SHA256_HEX])
{
    char buf[COPY_BUF];
    struct rg_sha256 s;
    uint8_t d[RG_SHA256_LEN];
    rg_sha256_init(&s);
    for (off_t off = 0;;) {
        ssize_t n = pread(fd, buf, sizeof buf, off);
        if (n < 0)
            return -errno;
        if (n == 0)
            break;
        rg_sha256_update(&s, buf, (size_t)n);
        off += n;
    }
    rg_sha256_final(&s, d);
    rg_sha256_hex(d, hex);
    return 0;
}

/* Claims the kept object obj (of size bytes, or any where -1) for a record
 * about to name it. A prune removes only what it finds unnamed and older
 * than its grace period, so the mtime is made new first; then obj must
 * still be there, or a prune moved it aside before the touch landed and
 * judges it by the old mtime (cli/journal/prune.c). One there now was touched,
 * published or put back since: new. A hit costs one call more than a
 * look, a miss none. */
static int claim_object(const char *obj, int64_t size)
{
    struct stat st = {0};
    long r = rg_syscall6(SYS_utimensat, AT_FDCWD, (long)obj, 0, AT_SYMLINK_NOFOLLOW, 0, 0);
    if (r == 0)
        r = rg_sys_fstatat(AT_FDCWD, obj, &st, AT_SYMLINK_NOFOLLOW);
    if (r < 0 || (S_ISREG(st.st_mode) && (size < 0 || st.st_size == size)))
        return (int)r;
    /* Anything but a regular file of the version's size (a symbolic link
     * or a directory a tree put there, a copy a power cut cut short) would
     * stand in for the version: -ENOENT has the copy published instead. */
    r = rg_jset_aside(obj);
    return r < 0 ? (int)r : -ENOENT;
}

/* Gives the copy its name. A version kept already (by this session or any
 * other) is not stored twice: the name exists, and is claimed instead; one
 * a prune takes meanwhile is published again. */
static int publish(int fd, const char *tmp, const char *obj, int64_t size)
{
    long r = -ENOENT;
    bool moved = false;
    char link[RG_FD_LINK_MAX];
    if (!tmp[0])
        rg_fd_link(link, fd);
    for (int tries = 0; r == -ENOENT && tries < 3; tries++) {
        r = tmp[0] ? rg_sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, obj, RENAME_NOREPLACE)
                   : rg_syscall6(SYS_linkat, AT_FDCWD, (long)link, AT_FDCWD, (long)obj,
                                 AT_SYMLINK_FOLLOW, 0);
        moved = r == 0 && tmp[0];
        if (r == -EEXIST)
            r = claim_object(obj, size);
    }
    if (tmp[0] && !moved)
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    return (int)r;
}

/* Did a writer of the session change the file while it was copied? Then
 * the copy may hold half of the session's own write, and the writer kept
 * the old bytes itself before it began. */
static bool changed_by_session(const struct rg_jkeep *k, int src)
{
    struct rg_entry *e = rg_table_find(&k->c->table, k->st->st_dev, k->st->st_ino);
    if (!e || !(rg_entry_load(&k->c->table, e).writers > 0 ||
                (atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE)))
        return false; /* no writer of the session began: the common case, no fstat */
    struct stat now;
    return rg_sys_fstat(src, &now) == 0 && (now.st_ctim.tv_sec != k->st->st_ctim.tv_sec ||
                                            now.st_ctim.tv_nsec != k->st->st_ctim.tv_nsec);
}

/* A small file is read once: hashed from memory, and written to the journal
 * only if no version with these bytes is kept yet (switching branches back
 * and forth keeps the same versions again and again). 2: it grew, copy it
 * instead. */
static int keep_small(struct rg_jkeep *k, int src, char *obj, size_t cap)
{
    char buf[COPY_BUF], tmp[RG_JPATH + 64];
    ssize_t n = pread(src, buf, sizeof buf, 0);
    if (n < 0)
        return -errno;
    if (n != k->st->st_size)
        return 2;
    if (changed_by_session(k, src))
        return 1;
    struct rg_sha256 s;
    uint8_t d[RG_SHA256_LEN];
    rg_sha256_init(&s);
    rg_sha256_update(&s, buf, (size_t)n);
    rg_sha256_final(&s, d);
    rg_sha256_hex(d, k->object);
    rg_concat(obj, cap, k->objects, "/", k->object);
    if (claim_object(obj, n) == 0)
        return 0;
    int dst = open_scratch(k->objects, tmp, sizeof tmp);
    if (dst < 0)
        return dst;
    ssize_t w = pwrite(dst, buf, (size_t)n, 0);
    int r = w == n ? publish(dst, tmp, obj, n) : w < 0 ? -errno : -ENOSPC;
    if (r < 0 && tmp[0])
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    rg_sys_close(dst);
    return r;
}

/* A larger one is cloned or copied first, then hashed from the copy: the
 * source may be changing under a writer outside the session. */
static int keep_large(struct rg_jkeep *k, int src, char *obj, size_t cap)
{
    char tmp[RG_JPATH + 64];
    int dst = open_scratch(k->objects, tmp, sizeof tmp);
    if (dst < 0)
        return dst;
    int r = rg_jcopy_bytes(src, dst, k->st->st_size);
    if (r == 0 && changed_by_session(k, src))
        r = 1;
    if (r == 0)
        r = hash_copy(dst, k->object);
    if (r == 0) {
        rg_concat(obj, cap, k->objects, "/", k->object);
        r = publish(dst, tmp, obj, -1); /* the copy's size, which the hash is of */
    }
    if (r != 0 && tmp[0])
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    rg_sys_close(dst);
    return r;
}

int rg_jcopy_keep(struct rg_jkeep *k, int src)
{
    char obj[RG_JPATH + RG_JOURNAL_OBJECT_MAX];
    int r = 2;
    if (k->st->st_size <= COPY_BUF)
        r = keep_small(k, src, obj, sizeof obj);
    if (r == 2)
        r = keep_large(k, src, obj, sizeof obj);
    return r;
}
