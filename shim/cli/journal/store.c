#include "cli/journal/store.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/pick.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/sha256.h"
#include "guard/journal/end.h"
#include "os/clock.h"
#include "os/logfile.h"

static int mkdirs(const char *dir)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1;; s++)
        if (*s == '/' || !*s) {
            char end = *s;
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return -errno;
            if (!end)
                return 0;
            *s = '/';
        }
}

static void index_path(char *out, size_t cap, const char *dir, const char *id)
{
    snprintf(out, cap, "%s/" RG_JOURNAL_SESSIONS "/%s.jsonl", dir, id);
}

static int append_line(const char *dir, const char *id, const char *line, size_t n)
{
    char path[PATH_MAX + 256];
    index_path(path, sizeof path, dir, id);
    int fd = n ? rg_log_open_in(path, false) : -ENAMETOOLONG;
    if (fd < 0)
        return fd;
    int rc = write(fd, line, n) == (ssize_t)n ? 0 : -EIO;
    close(fd);
    return rc;
}

static void record_of(struct rg_jrecord *r, const char *op, const char *abs, const struct stat *st)
{
    *r = (struct rg_jrecord){
        .time_ns = rg_now_ns(),
        .pid = (int)getpid(),
        .prog = "readguard",
        .op = op,
        .call = op,
        .path = abs,
        .exists = st != NULL,
    };
    if (!st)
        return;
    r->dev = st->st_dev, r->ino = st->st_ino, r->mode = st->st_mode;
    r->uid = st->st_uid, r->gid = st->st_gid, r->size = st->st_size;
    r->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    r->atime_ns = (int64_t)st->st_atim.tv_sec * 1000000000 + st->st_atim.tv_nsec;
}

int rg_jstore_record(const char *dir, const char *id, const char *abs, const char *op,
                     const struct stat *st, const char *hex)
{
    struct rg_jrecord rec;
    char line[8192];
    record_of(&rec, op, abs, st);
    rec.object = hex;
    return append_line(dir, id, line, rg_jrecord_format(line, sizeof line, &rec));
}

void rg_jstore_object(char *out, size_t cap, const char *dir, const char *name)
{
    struct stat st;
    char target[RG_JOURNAL_OBJECT_MAX];
    snprintf(out, cap, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, name);
    if (stat(out, &st) == 0 || errno != ENOENT)
        return;
    /* A settled linked name leads to its content object, which is the one
     * a prune may have left aside. */
    ssize_t n =
        lstat(out, &st) == 0 && S_ISLNK(st.st_mode) ? readlink(out, target, sizeof target - 1) : -1;
    if (n > 0) {
        target[n] = '\0';
        if (rg_jobject_valid(target) && !rg_jobject_is_linked(target))
            name = target;
    }
    snprintf(out, cap, "%s/" RG_JOURNAL_OBJECTS "/" RG_JOURNAL_ASIDE "%s", dir, name);
}

int rg_jstore_claim(const char *obj, int64_t size)
{
    struct stat st;
    if (utimensat(AT_FDCWD, obj, NULL, AT_SYMLINK_NOFOLLOW) != 0 || lstat(obj, &st) != 0)
        return -errno;
    if (S_ISREG(st.st_mode) && st.st_size == size)
        return 0;
    /* Anything else under the name would stand in for the version (a
     * symbolic link or a file a tree planted, a copy cut short): it is
     * moved aside, under a dot name no record names, and stored again. */
    char aside[PATH_MAX + 32];
    const char *base = strrchr(obj, '/');
    int dir = base ? (int)(base - obj) + 1 : 0;
    if (snprintf(aside, sizeof aside, "%.*s.aside-%d-%s", dir, obj, (int)getpid(), obj + dir) >=
        (int)sizeof aside)
        return -ENAMETOOLONG;
    return rename(obj, aside) == 0 ? -ENOENT : -errno;
}

/* Writes all n bytes of buf to fd: 0, or -errno. */
static int write_all(int fd, const char *buf, size_t n)
{
    /* A short write (a full disk, RLIMIT_FSIZE) sets no errno: the next
     * one says why. */
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w <= 0)
            return w < 0 ? -errno : -ENOSPC;
        done += (size_t)w;
    }
    return 0;
}

/* rg_jstore_hash_copy, stopping with -EAGAIN past limit bytes: a file
 * that grows while it is read has changed, and what it grew by (a
 * truncate -s 20G takes no room) is not copied. */
static int hash_copy_upto(int src, int dst, char hex[RG_SHA256_HEX], int64_t limit)
{
    char buf[65536];
    struct rg_sha256 s;
    uint8_t d[RG_SHA256_LEN];
    rg_sha256_init(&s);
    ssize_t n = 0;
    int r = 0;
    int64_t total = 0;
    while (r == 0 && (n = read(src, buf, sizeof buf)) > 0) {
        if ((total += n) > limit) {
            r = -EAGAIN;
            break;
        }
        rg_sha256_update(&s, buf, (size_t)n);
        if (dst >= 0)
            r = write_all(dst, buf, (size_t)n);
    }
    if (r == 0 && n < 0)
        r = -errno;
    rg_sha256_final(&s, d);
    rg_sha256_hex(d, hex);
    return r;
}

int rg_jstore_hash_copy(int src, int dst, char hex[RG_SHA256_HEX])
{
    return hash_copy_upto(src, dst, hex, INT64_MAX);
}

int rg_jstore_hash_upto(int src, char hex[RG_SHA256_HEX], int64_t limit)
{
    return hash_copy_upto(src, -1, hex, limit);
}

static int copy_upto(int src, const char *dir, char hex[RG_SHA256_HEX], int64_t limit)
{
    char objects[PATH_MAX], tmp[PATH_MAX + 64], obj[PATH_MAX + 80];
    snprintf(objects, sizeof objects, "%s/" RG_JOURNAL_OBJECTS, dir);
    int r = mkdirs(objects);
    if (r < 0)
        return r;
    snprintf(tmp, sizeof tmp, "%s/.tmp-%d-undo", objects, (int)getpid());
    int dst = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (dst < 0)
        return -errno;
    r = hash_copy_upto(src, dst, hex, limit);
    struct stat copied;
    if (r == 0 && fstat(dst, &copied) != 0)
        r = -errno;
    int64_t size = r == 0 ? copied.st_size : 0;
    close(dst);
    snprintf(obj, sizeof obj, "%s/%s", objects, hex);
    /* A version kept already is claimed, as the shim does (guard/journal/copy.c):
     * touched, then seen still there; one a prune took meanwhile is
     * published again. */
    for (int tries = 0; r == 0; tries++) {
        if (renameat2(AT_FDCWD, tmp, AT_FDCWD, obj, RENAME_NOREPLACE) == 0)
            return 0;
        int e = errno == EEXIST ? rg_jstore_claim(obj, size) : -errno;
        if (e == 0)
            break;
        if (e != -ENOENT || tries == 2)
            r = e;
    }
    unlink(tmp);
    return r;
}

int rg_jstore_copy(int src, const char *dir, char hex[RG_SHA256_HEX], int64_t limit)
{
    return copy_upto(src, dir, hex, limit);
}

int64_t rg_jstore_max_file(void)
{
    const char *env = getenv(RG_ENV_JOURNAL_MAX_FILE);
    int64_t v = env && *env ? rg_size_parse(env) : -1;
    return v >= 0 ? v : RG_JOURNAL_FILE_MAX;
}

static int keep_at(const char *dir, const char *id, int at, const char *name, const char *abs,
                   const char *op, struct rg_jkept *kept, int64_t cap)
{
    struct stat st, now;
    if (kept)
        kept->st.st_mode = 0;
    int fd = openat(at, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOENT || errno == ELOOP ? 0 : -errno;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    /* A tree's truncate -s 20G takes no room; its copy, byte by byte, would
     * fill the disk the journal is on. */
    if (st.st_size > cap) {
        close(fd);
        return RG_JSTORE_TOO_LARGE;
    }
    char hex[RG_SHA256_HEX];
    int r = copy_upto(fd, dir, hex, st.st_size);
    close(fd);
    /* A write that landed during the copy is in no version: say so before
     * anything names the copy (undo then leaves the file alone). */
    if (r == 0 &&
        (fstatat(at, name, &now, AT_SYMLINK_NOFOLLOW) != 0 || !rg_jstore_same_state(&st, &now)))
        r = -EAGAIN;
    if (r < 0)
        return r;
    if (kept) {
        kept->st = st;
        memcpy(kept->hex, hex, sizeof hex);
    }
    return rg_jstore_record(dir, id, abs, op, &st, hex);
}

int rg_jstore_keep_at(const char *dir, const char *id, int at, const char *name, const char *abs,
                      const char *op, struct rg_jkept *kept)
{
    return keep_at(dir, id, at, name, abs, op, kept, rg_jstore_max_file());
}

/* The hook holds the file to its session's cap before it asks. */
int rg_jstore_keep(const char *dir, const char *id, const char *abs, const char *op,
                   struct rg_jkept *kept)
{
    return keep_at(dir, id, AT_FDCWD, abs, abs, op, kept, INT64_MAX);
}

/* How many bytes a copy of fd may read, into *st: its size now, or -EFBIG
 * past the journal's cap (a truncate -s 20G takes no room; its copy would). */
static int64_t copy_limit(int fd, struct stat *st)
{
    if (fstat(fd, st) != 0)
        return -errno;
    return st->st_size > rg_jstore_max_file() ? -EFBIG : st->st_size;
}

int rg_jstore_hash_copy_capped(int src, int dst, char hex[RG_SHA256_HEX])
{
    struct stat st;
    int64_t limit = copy_limit(src, &st);
    return limit < 0 ? (int)limit : hash_copy_upto(src, dst, hex, limit);
}

int rg_jstore_keep_fd(const char *dir, const char *id, const char *abs, int fd, const char *op)
{
    struct stat st;
    char hex[RG_SHA256_HEX];
    int64_t limit = copy_limit(fd, &st);
    int r = limit < 0 ? (int)limit : copy_upto(fd, dir, hex, limit);
    return r < 0 ? r : rg_jstore_record(dir, id, abs, op, &st, hex);
}

bool rg_jstore_same_state(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The "end" records are the library's too (guard/journal/end.h). */
static struct rg_jend_by by_readguard(void)
{
    return (struct rg_jend_by){"readguard", RG_JOURNAL_OP_END, (int)getpid(), rg_now_ns()};
}

int rg_jstore_end_at(const char *dir, const char *id, int at, const char *name, const char *abs)
{
    char line[8192];
    struct rg_jend_by by = by_readguard();
    return append_line(dir, id, line, rg_jend_format(line, sizeof line, at, name, abs, &by));
}

void rg_jstore_close_session(const char *dir, const char *id)
{
    char path[PATH_MAX + 256];
    struct rg_jend_by by = by_readguard();
    index_path(path, sizeof path, dir, id);
    rg_jend_session(path, &by);
}

static int64_t stamp_ns(const struct timespec *t)
{
    return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

bool rg_jstore_stamp_kept(const struct rg_jrec *r, const struct stat *st)
{
    return !r->exists || (st->st_size == r->size && stamp_ns(&st->st_mtim) == r->mtime_ns);
}

bool rg_jstore_named_by(const char *dir, const char *hex, const struct stat *st)
{
    char obj[PATH_MAX + 80];
    struct stat o;
    /* Not rg_jstore_object: where the name is free, as it is for most a
     * settle names, two looks, not three. */
    snprintf(obj, sizeof obj, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, hex);
    int r = lstat(obj, &o);
    if (r != 0 && errno == ENOENT) {
        snprintf(obj, sizeof obj, "%s/" RG_JOURNAL_OBJECTS "/" RG_JOURNAL_ASIDE "%s", dir, hex);
        r = lstat(obj, &o);
    }
    return r == 0 && o.st_ino == st->st_ino && o.st_dev == st->st_dev;
}

int rg_jstore_kept_unchanged(const char *dir, const struct rg_jrec *r, int fd,
                             const struct stat *st)
{
    if (rg_jstore_stamp_kept(r, st))
        return 1;
    /* Named by content, it has a second name. */
    if (st->st_nlink < 2)
        return 0;
    char hex[RG_SHA256_HEX];
    int e = rg_jstore_hash_copy(fd, -1, hex);
    if (e < 0)
        return errno = -e, -1;
    if (lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    return rg_jstore_named_by(dir, hex, st);
}

const char *rg_jstore_content_name(const char *dir, const struct rg_jrec *r,
                                   char target[RG_JOURNAL_OBJECT_MAX])
{
    char p[PATH_MAX + 128];
    if (!rg_jobject_is_linked(r->object))
        return r->object;
    snprintf(p, sizeof p, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, r->object);
    ssize_t n = readlink(p, target, RG_JOURNAL_OBJECT_MAX - 1);
    if (n <= 0)
        return NULL;
    target[n] = '\0';
    return rg_jobject_valid(target) && !rg_jobject_is_linked(target) ? target : NULL;
}

int rg_jstore_intact(const char *dir, const struct rg_jrec *r)
{
    char obj[PATH_MAX + 80], target[RG_JOURNAL_OBJECT_MAX], got[RG_SHA256_HEX];
    const char *want = rg_jstore_content_name(dir, r, target);
    rg_jstore_object(obj, sizeof obj, dir, r->object);
    struct stat st;
    bool inode =
        !want && rg_jobject_is_linked(r->object) && lstat(obj, &st) == 0 && S_ISREG(st.st_mode);
    if (!want && !inode)
        return 1;
    int fd = open(obj, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (inode) {
        int kept = fstat(fd, &st) == 0 ? rg_jstore_kept_unchanged(dir, r, fd, &st) : -1;
        close(fd);
        return kept;
    }
    int e = rg_jstore_hash_copy(fd, -1, got);
    close(fd);
    if (e < 0)
        return errno = -e, -1;
    return strcmp(want, got) == 0;
}
