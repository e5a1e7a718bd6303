#include "guard/journal.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "core/report.h"
#include "core/request.h"
#include "core/sha256.h"
#include "core/table.h"
#include "core/text.h"
#include "guard/ask.h"
#include "guard/ctx.h"
#include "guard/log.h"
#include "guard/scope.h"
#include "os/clock.h"
#include "os/logfile.h"
#include "os/procfd.h"
#include "os/session.h"
#include "os/sys.h"
/* A path in the journal: its directory, a subdirectory and a name. */
#define JPATH (RG_LOG_PATH_MAX + 128)

/* Small enough for any thread's stack, large enough to copy at disk speed. */
#define COPY_BUF 8192

struct keep {
    struct rg_ctx *c;
    const struct rg_request *req;
    const char *op;
    const struct stat *st;
    char abs[PATH_MAX];
    char hex[RG_SHA256_HEX];
};

/* Are the file's bytes the session's own? When the stamp is its own write,
 * or a process of the session holds it open for writing right now: the
 * first writer kept the old bytes before it counted itself a writer (and
 * before it truncated), so concurrent writers keep them once. Two that both
 * look before either counts keep the same object, stored once. */
static bool own_bytes(struct rg_ctx *c, const struct stat *st)
{
    struct rg_entry *e = rg_table_find(&c->table, st->st_dev, st->st_ino);
    if (!e)
        return false;
    struct rg_record r = rg_entry_load(&c->table, e);
    /* The entry names only the last writer; with more counted, one that
     * is gone leaves others writing. */
    if (r.writers > 1 || (r.writers == 1 && rg_pid_holds(r.writer_pid, e->dev, e->ino)))
        return true;
    int64_t mtime = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    return (atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE) && r.found &&
           r.mtime_ns == mtime && r.size == st->st_size;
}

static int open_source(const struct rg_request *req, int fd, bool follow, const struct stat *st)
{
    int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, rfd;
    if (fd >= 0) {
        char link[32];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        rfd = rg_sys_openat(AT_FDCWD, link, flags, 0);
    } else {
        rfd = rg_sys_openat(req->dirfd, req->path, flags | (follow ? 0 : O_NOFOLLOW), 0);
    }
    struct stat now;
    if (rfd >= 0 &&
        (fstat(rfd, &now) != 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev)) {
        rg_sys_close(rfd);
        rfd = -ESTALE;
    }
    return rfd;
}

static int mkdirs(const char *dir)
{
    char p[JPATH];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1;; s++)
        if (*s == '/' || !*s) {
            char end = *s;
            *s = '\0';
            long r = rg_syscall6(SYS_mkdirat, AT_FDCWD, (long)p, 0700, 0, 0, 0);
            if (r < 0 && r != -EEXIST)
                return (int)r;
            if (!end)
                return 0;
            *s = '/';
        }
}

/* A file in objects/ to copy into, not yet visible under any name.
 * tmp receives the dot-name when the filesystem has no O_TMPFILE. */
static int open_scratch(const char *objects, char *tmp, size_t cap)
{
    tmp[0] = '\0';
    int fd = rg_sys_openat(AT_FDCWD, objects, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd == -ENOENT && (fd = mkdirs(objects)) == 0)
        fd = rg_sys_openat(AT_FDCWD, objects, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd != -EOPNOTSUPP && fd != -EISDIR && fd != -EINVAL)
        return fd;
    static _Atomic unsigned seq;
    snprintf(tmp, cap, "%s/.tmp-%d-%u", objects, (int)getpid(), atomic_fetch_add(&seq, 1));
    return rg_sys_openat(AT_FDCWD, tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

/* A reflink where the filesystem shares extents, else a kernel copy, else
 * read and write. */
static int copy_bytes(int src, int dst, int64_t size)
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
    char buf[COPY_BUF];
    for (off_t off = 0;;) {
        ssize_t n = pread(src, buf, sizeof buf, off);
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

/* Gives the copy its name. A version kept already (by this session or any
 * other) is not stored twice: the link fails with EEXIST and that is fine. */
static int publish(int fd, const char *tmp, const char *obj)
{
    long r;
    if (tmp[0]) {
        r = rg_sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, obj, RENAME_NOREPLACE);
        if (r < 0)
            rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    } else {
        char link[32];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        r = rg_syscall6(SYS_linkat, AT_FDCWD, (long)link, AT_FDCWD, (long)obj, AT_SYMLINK_FOLLOW,
                        0);
    }
    return r == -EEXIST ? 0 : (int)r;
}

static int32_t actor_pid(const struct rg_ctx *c)
{
    return c->actor ? c->actor->pid : (int32_t)getpid();
}

static void fill_record(const struct keep *k, struct rg_jrecord *r)
{
    const struct stat *st = k->st;
    *r = (struct rg_jrecord){
        .time_ns = rg_now_ns(),
        .pid = (int)actor_pid(k->c),
        .prog = rg_log_actor_prog(k->c),
        .op = k->op,
        .call = k->req->call,
        .path = k->abs,
        .dev = st->st_dev,
        .ino = st->st_ino,
        .mode = st->st_mode,
        .uid = st->st_uid,
        .gid = st->st_gid,
        .mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec,
        .atime_ns = (int64_t)st->st_atim.tv_sec * 1000000000 + st->st_atim.tv_nsec,
        .size = st->st_size,
        .exists = 1,
    };
}

static int append_index(const struct keep *k, const struct rg_jrecord *r)
{
    const struct rg_header *h = k->c->table.hdr;
    char id[RG_JOURNAL_ID_MAX], path[JPATH], line[8192];
    rg_journal_id(id, h->created_ns, h->creator_pid);
    snprintf(path, sizeof path, "%s/" RG_JOURNAL_SESSIONS "/%s.jsonl", h->journal_dir, id);
    size_t n = rg_jrecord_format(line, sizeof line, r);
    if (n == 0)
        return -ENAMETOOLONG;
    int fd = rg_log_open(path);
    if (fd < 0)
        return fd;
    ssize_t w = write(fd, line, n);
    int e = w < 0 ? -errno : (size_t)w == n ? 0 : -ENOSPC;
    rg_sys_close(fd);
    return e;
}

/* What could not be kept goes to the index and the session log, and once
 * per process to stderr: the change itself goes ahead. */
static void unsaved(struct keep *k, const char *why, int err)
{
    struct rg_jrecord r;
    fill_record(k, &r);
    r.unsaved = why;
    append_index(k, &r);
    struct rg_ctx *c = k->c;
    const char *log = c->table.hdr->log_path;
    struct rg_log_line l = {
        .time_ns = r.time_ns,
        .pid = r.pid,
        .prog = r.prog,
        .op = rg_op_name(k->req->op),
        .call = k->req->call,
        .path = k->abs,
        .decision = "unsaved",
        .reason = why,
        .current_mtime_ns = r.mtime_ns,
        .current_size = r.size,
    };
    char line[4096];
    size_t n = log[0] ? rg_log_format(line, sizeof line, &l) : 0;
    int fd = n ? rg_log_open(log) : -1;
    if (fd >= 0) {
        ssize_t w = write(fd, line, n);
        (void)w;
        rg_sys_close(fd);
    }
    if (atomic_exchange(&c->journal_warned, 1))
        return;
    char msg[PATH_MAX + 512], shown[PATH_MAX];
    rg_line_escape(shown, sizeof shown, k->abs);
    const char *name = err ? strerrorname_np(err) : NULL;
    int m = snprintf(msg, sizeof msg,
                     "readguard: warning: the old bytes of '%s' were not kept in the journal "
                     "(%s%s%s); the change goes ahead, and `readguard undo` cannot bring them "
                     "back.\n",
                     shown, why, name ? ": " : "", name ? name : "");
    int efd = rg_log_err_fd(c);
    ssize_t w = m > 0 && efd >= 0 ? write(efd, msg, (size_t)m) : 0;
    (void)w;
}

/* Did a writer of the session change the file while it was copied? Then
 * the copy may hold half of the session's own write, and the writer kept
 * the old bytes itself before it began. */
static bool changed_by_session(const struct keep *k, int src)
{
    struct rg_entry *e = rg_table_find(&k->c->table, k->st->st_dev, k->st->st_ino);
    if (!e || !(rg_entry_load(&k->c->table, e).writers > 0 ||
                (atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE)))
        return false; /* no writer of the session began: the common case, no fstat */
    struct stat now;
    return fstat(src, &now) == 0 && (now.st_ctim.tv_sec != k->st->st_ctim.tv_sec ||
                                     now.st_ctim.tv_nsec != k->st->st_ctim.tv_nsec);
}

/* The bytes the entry records are kept now: as good as the session's own
 * for the journal, so an open for writing that changes nothing (the stamp
 * stays the read's, and a restamp leaves it so) does not keep them again. */
static void mark_kept(struct rg_ctx *c, const struct stat *st)
{
    struct rg_entry *e = rg_table_find(&c->table, st->st_dev, st->st_ino);
    struct rg_stamp now = rg_stamp_of(st);
    if (e && rg_entry_holds(&c->table, e, &now))
        atomic_fetch_or_explicit(&e->gen, RG_GEN_WRITE, memory_order_relaxed);
}

/* A small file is read once: hashed from memory, and written to the journal
 * only if no version with these bytes is kept yet (switching branches back
 * and forth keeps the same versions again and again). 0: kept; 1: the
 * session's own writer got there first; 2: it grew, copy it instead. */
static int keep_small(struct keep *k, int src, const char *objects, char *obj, size_t cap)
{
    char buf[COPY_BUF], tmp[JPATH + 64];
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
    rg_sha256_hex(d, k->hex);
    snprintf(obj, cap, "%s/%s", objects, k->hex);
    struct stat st;
    if (fstatat(AT_FDCWD, obj, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_size == n)
        return 0;
    int dst = open_scratch(objects, tmp, sizeof tmp);
    if (dst < 0)
        return dst;
    ssize_t w = pwrite(dst, buf, (size_t)n, 0);
    int r = w == n ? publish(dst, tmp, obj) : w < 0 ? -errno : -ENOSPC;
    if (r < 0 && tmp[0])
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    rg_sys_close(dst);
    return r;
}

/* A larger one is cloned or copied first, then hashed from the copy: the
 * source may be changing under a writer outside the session. */
static int keep_large(struct keep *k, int src, const char *objects, char *obj, size_t cap)
{
    char tmp[JPATH + 64];
    int dst = open_scratch(objects, tmp, sizeof tmp);
    if (dst < 0)
        return dst;
    int r = copy_bytes(src, dst, k->st->st_size);
    if (r == 0 && changed_by_session(k, src))
        r = 1;
    if (r == 0)
        r = hash_copy(dst, k->hex);
    if (r == 0) {
        snprintf(obj, cap, "%s/%s", objects, k->hex);
        r = publish(dst, tmp, obj);
    }
    if (r != 0 && tmp[0])
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    rg_sys_close(dst);
    return r;
}

static void keep_bytes(struct keep *k, int src)
{
    char objects[JPATH], obj[JPATH + RG_SHA256_HEX];
    snprintf(objects, sizeof objects, "%s/" RG_JOURNAL_OBJECTS, k->c->table.hdr->journal_dir);
    int r = 2;
    if (k->st->st_size <= COPY_BUF)
        r = keep_small(k, src, objects, obj, sizeof obj);
    if (r == 2)
        r = keep_large(k, src, objects, obj, sizeof obj);
    if (r > 0)
        return;
    struct rg_jrecord rec;
    fill_record(k, &rec);
    rec.object = k->hex;
    if (r == 0)
        r = append_index(k, &rec);
    if (r < 0)
        unsaved(k, "journal-unwritable", -r);
    else
        mark_kept(k->c, k->st);
}

void rg_journal_keep(struct rg_ctx *c, const struct rg_request *req, const char *op, int fd,
                     bool follow, const struct stat *st)
{
    if (!rg_journal_on(c) || !S_ISREG(st->st_mode) || own_bytes(c, st))
        return;
    struct keep k = {.c = c, .req = req, .op = op, .st = st};
    int src = open_source(req, fd, follow, st);
    int where = src >= 0 ? src : fd;
    if (rg_scope_locate(c, req->dirfd, req->path, where, follow, false, k.abs, sizeof k.abs) ==
            RG_SCOPE_FREE ||
        rg_path_under(k.abs, c->table.hdr->journal_dir)) {
        if (src >= 0)
            rg_sys_close(src);
        return;
    }
    if (src < 0)
        unsaved(&k, "unreadable", -src);
    else if (st->st_size > c->table.hdr->journal_max_file)
        unsaved(&k, "too-large", 0);
    else
        keep_bytes(&k, src);
    if (src >= 0)
        rg_sys_close(src);
}
