#include "guard/calls.h"
#include <errno.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/content.h"
#include "core/policy.h"
#include "guard/ask.h"
#include "guard/critical.h"
#include "guard/dircache.h"
#include "guard/fdmap.h"
#include "guard/journal.h"
#include "guard/log.h"
#include "guard/meta.h"
#include "guard/namehint.h"
#include "guard/names.h"
#include "guard/readhash.h"
#include "guard/restamp.h"
#include "guard/scan.h"
#include "guard/scope.h"
#include "os/clock.h"
#include "os/session.h"
#include "os/sys.h"
static int sys_open(const struct rg_request *req, int flags)
{
    mode_t mode = rg_flags_need_mode(flags) ? req->mode : 0;
    /* A FIFO or a tty may keep an open waiting: wait with the program's
     * signal mask (guard/critical.h). */
    if (!req->resolve)
        return RG_PAUSED(rg_sys_openat(req->dirfd, req->path, flags, mode));
    struct open_how how = {
        .flags = (uint64_t)(unsigned)flags, .mode = mode, .resolve = req->resolve};
    return RG_PAUSED(rg_sys_openat2(req->dirfd, req->path, &how, sizeof how));
}

int rg_open_unguarded(const struct rg_request *req) { return sys_open(req, req->flags); }

/* read_fd: the descriptor a read just opened, whose bytes may be hashed;
 * -1 for a restamp after the session's own write. by: the read's request,
 * whose name is noted when the read is recorded anew (guard/namehint.h);
 * the re-read of a file already known notes nothing, and costs nothing. */
static void stamp(struct rg_ctx *c, const struct stat *st, int read_fd, const struct rg_request *by)
{
    struct rg_file f = rg_file_of(st);
    struct rg_entry *e = rg_entry_for(c, &f, true);
    struct rg_stamp now = rg_stamp_of(st);
    if (e && read_fd >= 0)
        now.reader = rg_scan_read(&c->scan, &c->table, (uint32_t)(e - c->table.entries) + 1);
    if (e && (read_fd >= 0 ? rg_stamp_read(&c->table, e, &now, read_fd)
                           : rg_entry_stamp(&c->table, e, &now, true, rg_now_ns()))) {
        atomic_fetch_add_explicit(&c->table.hdr->reads, 1, memory_order_relaxed);
        if (by)
            rg_namehint_note(c, by, e);
    } else if (e && (atomic_load_explicit(&e->reader, memory_order_relaxed) & RG_READER_SCAN))
        rg_entry_reread(e, now.reader); /* a scan gives way to a look or a write */
    else if (!e && c->table_state == RG_TABLE_OK)
        rg_log_table_full(c);
}

static void stamp_path(struct rg_ctx *c, int dirfd, const char *path, bool follow)
{
    struct stat st;
    if (fstatat(dirfd, path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
        stamp(c, &st, -1, NULL);
}

/* A rename moves what the session knows about an inode to its new name; it
 * never makes an unread inode known, or `mv f x && mv x f` would unlock f.
 * The session's own atomic save renames a temp file it wrote (so knows). */
struct moved {
    bool known;
    uint64_t dev, ino;
    struct rg_entry *e; /* the record, when known */
};

/* Is f what r recorded? A read within a tick of the file's last change
 * (sed -i.bak of a file written a moment before) is racy: then only the
 * bytes can tell, and they are hashed, so that the session still knows the
 * file it read, for the backup rule (guard/scope.h) and under its new name. */
static bool recorded(int dirfd, const char *path, struct rg_file *f, const struct rg_record *r)
{
    enum rg_stamp_match m = rg_record_match(f, r);
    if (m == RG_STAMP_ASK_BYTES) {
        struct rg_request at = {.dirfd = dirfd, .path = path};
        rg_take_hash(&at, f, -1, false);
        m = rg_record_match(f, r);
    }
    return m == RG_STAMP_MATCHES;
}

/* A sibling's own write or act still to restamp the inode is waited for:
 * the carry must come after it, or the file is left changed. */
static struct moved known_at(struct rg_ctx *c, int dirfd, const char *path)
{
    struct stat st;
    struct moved m = {false, 0, 0, NULL};
    for (int n = 0; fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
         n++) {
        struct rg_file f = rg_file_of(&st);
        struct rg_entry *e = rg_entry_for(c, &f, false);
        struct rg_record r = rg_entry_load(&c->table, e);
        m.dev = f.dev;
        m.ino = f.ino;
        /* Only a record of this very stamp (ctime included: an mtime put
         * back after a change must not be carried as known), or of these
         * very bytes where the stamp cannot tell. */
        m.known = recorded(dirfd, path, &f, &r);
        m.e = m.known ? e : NULL;
        if (m.known || !rg_wait_restamp(&r, n))
            break;
    }
    return m;
}

/* The rename moves the ctime of what it moves before carry can record it:
 * a sibling judging the inode in between must wait for the carry (rg_ask),
 * not find it changed. */
static void act_begin(const struct moved *m)
{
    if (m->e)
        rg_entry_act_begin(m->e);
}

static void act_end(const struct moved *m)
{
    if (m->e)
        rg_entry_writer_close(m->e);
}

/* The file a rename over it replaces loses a name, which moves its ctime,
 * and it may live on: open in a sibling about to write it, or under another
 * name. A descriptor on it, if the session knows it, lets the rename restamp
 * it (renamed_over); -1 otherwise. */
static int hold_replaced(struct rg_ctx *c, const struct rg_request *req, const struct stat *dst)
{
    struct rg_file f = rg_file_of(dst);
    if (!S_ISREG(dst->st_mode) || !rg_entry_for(c, &f, false))
        return -1;
    int fd = rg_sys_openat(req->dirfd, req->path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_ino != dst->st_ino || st.st_dev != dst->st_dev)) {
        rg_sys_close(fd);
        return -1;
    }
    return fd;
}

/* The rename itself; over a file held, as the session's own change of that
 * file's metadata (guard/meta.h). */
static int renamed_over(struct rg_ctx *c, int held, int olddirfd, const char *oldpath,
                        const struct rg_request *req, unsigned flags)
{
    if (held < 0)
        return rg_sys_renameat2(olddirfd, oldpath, req->dirfd, req->path, flags);
    struct rg_meta_file f = {held, NULL, 0};
    struct rg_meta_call call = {
        SYS_renameat2, {olddirfd, (long)oldpath, req->dirfd, (long)req->path, flags}, false};
    return (int)rg_guard_meta(c, &f, &call);
}

/* The rename changed the inode's ctime: record it, if the session knew the
 * inode as it was, under the name it now has. */
static void carry(struct rg_ctx *c, const struct moved *m, int dirfd, const char *path)
{
    struct stat st;
    if (m->known && fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_ino == m->ino &&
        st.st_dev == m->dev)
        stamp(c, &st, -1, NULL);
}

static void note_read(struct rg_ctx *c, int fd, int flags, const struct rg_request *by)
{
    struct stat st;
    /* An O_DIRECTORY open only ever succeeds on a directory, which is not a
     * read: tree walks (find, grep -r, git, tar) open every directory so. */
    if (fd < 0 || (flags & (O_PATH | O_DIRECTORY)) || c->table_state == RG_TABLE_BROKEN)
        return;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        stamp(c, &st, fd, by);
}

void rg_note_read(struct rg_ctx *c, int fd, int flags) { note_read(c, fd, flags, NULL); }

static void note_write_stat(struct rg_ctx *c, int fd, const struct stat *st, void *stream)
{
    if (fd < 0 || !S_ISREG(st->st_mode))
        return;
    struct rg_file f = rg_file_of(st);
    struct rg_entry *e = rg_entry_for(c, &f, true);
    int32_t pid = rg_ctx_pid(c);
    if (e)
        rg_entry_writer_open(e, pid);
    if (c->table.hdr)
        atomic_fetch_add_explicit(&c->table.hdr->writes_allowed, 1, memory_order_relaxed);
    rg_fd_track(c, fd, f.dev, f.ino, pid, stream);
}

void rg_note_write(struct rg_ctx *c, int fd, void *stream)
{
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0)
        note_write_stat(c, fd, &st, stream);
}

/* Opens the target of a write without truncating it, creating it only if it
 * does not exist. *fresh says the file is new: there is nothing to lose.
 * O_CREAT|O_EXCL makes the "does not exist" answer atomic; the loop covers a
 * file appearing in between, and a dangling symlink, which O_EXCL refuses but
 * a plain O_CREAT follows to create its target. */
static int open_untruncated(const struct rg_request *req, bool *fresh, bool *maybe_fresh)
{
    int flags = req->flags & ~(O_TRUNC | O_CREAT);
    for (int tries = 0; tries < 3; tries++) {
        int fd = sys_open(req, flags);
        if (fd != -ENOENT || !(req->flags & O_CREAT))
            return fd;
        fd = sys_open(req, req->flags | O_EXCL);
        if (fd != -EEXIST) {
            *fresh = fd >= 0;
            return fd;
        }
    }
    *maybe_fresh = true;
    return sys_open(req, req->flags & ~O_TRUNC);
}

/* O_TRUNC, applied only once the check has passed, and only once fd counts
 * as a writer: a sibling must never see the emptied file and no writer. */
static int truncate_opened(struct rg_ctx *c, const struct rg_request *req, int fd,
                           const struct rg_file *f)
{
    if ((req->flags & O_ACCMODE) != O_RDONLY) {
        int r = rg_sys_ftruncate(fd, 0);
        if (r == 0)
            return fd;
        rg_note_close(c, fd);
        rg_sys_close(fd);
        return r;
    }
    /* O_RDONLY|O_TRUNC: ftruncate needs a writable descriptor, so reopen the
     * way the program asked and keep it only if it is the file we checked. */
    int fd2 = sys_open(req, req->flags & ~O_CREAT);
    struct stat st;
    if (fd2 >= 0 && (fstat(fd2, &st) != 0 || st.st_ino != f->ino || st.st_dev != f->dev)) {
        rg_sys_close(fd2);
        fd2 = -EAGAIN;
    }
    if (fd2 >= 0)
        note_write_stat(c, fd2, &st, NULL);
    rg_note_close(c, fd);
    rg_sys_close(fd);
    return fd2;
}

/* A timestamp-only open of a file the session may not write: a read-only
 * descriptor on the same inode lets futimens work and any write fail. It is
 * not a read, so nothing is recorded. */
static int reopen_read_only(const struct rg_request *req, const struct rg_file *f)
{
    int flags = (req->flags & ~(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)) | O_RDONLY;
    int fd = sys_open(req, flags);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_ino != f->ino || st.st_dev != f->dev)) {
        rg_sys_close(fd);
        return -EACCES;
    }
    return fd;
}

/* A write let through without a read (--allow-append) must not leave a stale
 * record behind that a restamp of an inherited descriptor would revive. */
static void forget(struct rg_ctx *c, const struct rg_file *f)
{
    struct rg_entry *e = rg_entry_for(c, f, false);
    if (e)
        rg_entry_forget(e);
}

void rg_guard_opened_read(struct rg_ctx *c, const struct rg_request *req, int fd)
{
    if (fd >= 0 && !(req->resolve == 0 && rg_read_outside_roots(c, req->path)))
        note_read(c, fd, req->flags, req);
}

int rg_guard_open(struct rg_ctx *c, const struct rg_request *req)
{
    if (!rg_flags_write(req->flags)) {
        int fd = sys_open(req, req->flags);
        rg_guard_opened_read(c, req, fd);
        return fd;
    }
    /* O_EXCL creates or fails, and O_TMPFILE has no name: neither can
     * overwrite anything. */
    if ((req->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
        (req->flags & O_TMPFILE) == O_TMPFILE) {
        int fd = sys_open(req, req->flags);
        rg_note_write(c, fd, NULL);
        return fd;
    }
    bool fresh = false, maybe_fresh = false;
    int fd = open_untruncated(req, &fresh, &maybe_fresh);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return fd;
    struct rg_file f = rg_file_of(&st);
    if (maybe_fresh && st.st_size == 0)
        fresh = true;
    bool follow = !(req->flags & O_NOFOLLOW);
    enum rg_action act = fresh ? RG_ALLOW : rg_ask(c, req, &f, fd, follow);
    if (!fresh && f.regular && act != RG_REFUSE && act != RG_READ_ONLY && act != RG_ALLOW_UNTRACKED)
        act = rg_journal_keep(c, req, (req->flags & O_TRUNC) ? "truncate" : "write", fd, follow,
                              &st, act, NULL);
    if (act == RG_REFUSE || act == RG_READ_ONLY) {
        rg_sys_close(fd);
        if (act == RG_REFUSE)
            return -EACCES;
        fd = reopen_read_only(req, &f);
        rg_fd_track(c, fd, f.dev, f.ino, RG_OPENER_STANDIN, NULL);
        return fd;
    }
    if (act == RG_ALLOW_UNTRACKED) {
        forget(c, &f);
        return fd;
    }
    note_write_stat(c, fd, &st, NULL);
    if (!fresh && (req->flags & O_TRUNC) && f.regular)
        fd = truncate_opened(c, req, fd, &f);
    return fd;
}

/* Each name of a rename is anchored on a descriptor of its own
 * (guard/anchor.h): the same directory is the same inode, not the same fd. */
static bool same_dir(int a, int b)
{
    struct stat sa, sb;
    return a == b ||
           (fstatat(a, "", &sa, AT_EMPTY_PATH) == 0 && fstatat(b, "", &sb, AT_EMPTY_PATH) == 0 &&
            sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev);
}

int rg_guard_rename(struct rg_ctx *c, const struct rg_request *req, int olddirfd,
                    const char *oldpath, unsigned flags)
{
    int targets = rg_rename_targets(flags), r;
    struct rg_request old = *req;
    old.dirfd = olddirfd;
    old.path = oldpath;
    old.shown = NULL;
    struct moved from = known_at(c, olddirfd, oldpath), onto = {false, 0, 0, NULL};
    if (targets == 2)
        onto = known_at(c, req->dirfd, req->path);
    /* What moves gets a new name: outside guarded scope, that is a write. */
    struct rg_request name = {RG_OP_LINK, req->call, olddirfd,   oldpath,   0,
                              0,          0,         req->dirfd, req->path, NULL};
    if (!from.known && (r = rg_guard_new_name(c, &name)) < 0)
        return r;
    struct rg_request back = {RG_OP_LINK, req->call, req->dirfd, req->path, 0,
                              0,          0,         olddirfd,   oldpath,   NULL};
    if (targets == 2 && !onto.known && (r = rg_guard_new_name(c, &back)) < 0)
        return r;
    enum rg_scope dst_scope =
        targets == 1 && rg_backup_name(oldpath, req->path) && same_dir(olddirfd, req->dirfd)
            ? rg_scope_backup(c, from.known, olddirfd, oldpath, req->path)
            : RG_SCOPE_UNKNOWN;
    struct stat dst = {0};
    bool linked = false;
    for (int tries = 0, moved = 0;; tries++) {
        struct stat src = {0};
        dst = (struct stat){0};
        int dst_kept = 0, src_kept = 0;
        if (targets >= 1 && (dst_kept = rg_ask_path_in(c, req, false, &dst, dst_scope)) < 0)
            return dst_kept;
        if (targets == 2 && (src_kept = rg_ask_path_stat(c, &old, false, &src)) < 0)
            return src_kept;
        bool exists = dst.st_mode != 0;
        int kept = exists ? rg_journal_keep_replaced(c, req, targets == 2 ? "exchange" : "rename",
                                                     &dst, dst_kept ? RG_ALLOW_KEPT : RG_ALLOW)
                          : 0;
        /* A sibling renamed another file over the target since it was
         * judged: judge that one (a few times, then as before). */
        if (kept == -ESTALE && moved++ < 8) {
            tries--;
            continue;
        }
        if (kept == -EACCES)
            return kept;
        linked = kept == 1;
        if (src.st_mode != 0 &&
            rg_journal_keep(c, &old, "exchange", -1, false, &src,
                            src_kept ? RG_ALLOW_KEPT : RG_ALLOW, NULL) == RG_REFUSE) {
            if (linked)
                rg_journal_unkeep(c, req, &dst);
            return -EACCES;
        }
        /* The destination was free when checked: keep it so, or a file that
         * appears meanwhile would be replaced unchecked. */
        unsigned f = flags | (targets == 1 && !exists && tries < 3 ? RENAME_NOREPLACE : 0);
        int held = targets == 1 && exists ? hold_replaced(c, req, &dst) : -1;
        /* Only now: the journal's question "are these bytes the session's
         * own?" must not take this rename for a writer that kept them. */
        act_begin(&from);
        act_begin(&onto);
        r = renamed_over(c, held, olddirfd, oldpath, req, f);
        bool again = r == -EEXIST && f != flags;
        if (r == -EINVAL && f != flags) /* a filesystem without RENAME_NOREPLACE */
            r = renamed_over(c, held, olddirfd, oldpath, req, flags);
        if (held >= 0)
            rg_sys_close(held);
        if (!again)
            break;
        act_end(&from);
        act_end(&onto);
    }
    if (r < 0 && linked)
        rg_journal_unkeep(c, req, &dst);
    if (r == 0) {
        carry(c, &from, req->dirfd, req->path);
        carry(c, &onto, olddirfd, oldpath);
    }
    act_end(&from);
    act_end(&onto);
    return r;
}

int rg_guard_link(struct rg_ctx *c, const struct rg_request *req, int flags)
{
    bool follow = flags & AT_SYMLINK_FOLLOW;
    struct rg_meta_file f = {req->dirfd, req->path,
                             (flags & AT_EMPTY_PATH) | (follow ? 0 : AT_SYMLINK_NOFOLLOW)};
    struct stat st;
    if (fstatat(f.dirfd, f.path, &st, f.flags) == 0 && S_ISREG(st.st_mode)) {
        struct rg_file file = rg_file_of(&st);
        if (rg_ask(c, req, &file, -1, follow) == RG_REFUSE)
            return -EACCES;
    }
    struct rg_meta_call call = {
        SYS_linkat, {req->dirfd, (long)req->path, req->to_dirfd, (long)req->to_path, flags}, false};
    return (int)rg_guard_meta(c, &f, &call);
}

int rg_guard_truncate(struct rg_ctx *c, const struct rg_request *req, off_t length)
{
    struct stat st;
    int r = rg_ask_path_stat(c, req, true, &st);
    if (r < 0)
        return r;
    if (st.st_mode != 0 && length < st.st_size &&
        rg_journal_keep(c, req, "truncate", -1, true, &st, r ? RG_ALLOW_KEPT : RG_ALLOW, NULL) ==
            RG_REFUSE)
        return -EACCES;
    r = rg_sys_truncate(req->path, length);
    if (r == 0)
        stamp_path(c, AT_FDCWD, req->path, true);
    return r;
}

int rg_guard_ftruncate(struct rg_ctx *c, const char *call, int fd, off_t length)
{
    struct rg_fdslot s;
    struct stat st;
    char link[64], path[PATH_MAX];
    if (!rg_fd_peek(c, fd, &s) || s.opener != RG_OPENER_STANDIN || fstat(fd, &st) != 0)
        return rg_sys_ftruncate(fd, length);
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    /* The name the program gave is gone; the one relative to the working
     * directory is usually the same. */
    const char *shown = n > 0 ? path : link;
    char cwd[PATH_MAX];
    size_t len = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    if (len > 1 && strncmp(shown, cwd, len) == 0 && shown[len] == '/')
        shown += len + 1;
    struct rg_request req = {RG_OP_TRUNCATE, call, AT_FDCWD, shown, O_WRONLY, 0, 0, 0, NULL, NULL};
    struct rg_file f = rg_file_of(&st);
    enum rg_action act = rg_ask(c, &req, &f, fd, true);
    if (act != RG_REFUSE && length < st.st_size)
        act = rg_journal_keep(c, &req, "truncate", fd, true, &st, act, NULL);
    if (act == RG_REFUSE)
        return -EACCES;
    return rg_sys_ftruncate(fd, length);
}

int rg_guard_unlink(struct rg_ctx *c, const struct rg_request *req, int flags)
{
    if (flags & AT_REMOVEDIR)
        return rg_sys_unlinkat(req->dirfd, req->path, flags);
    struct stat st;
    int r = rg_ask_path_stat(c, req, false, &st);
    if (r < 0)
        return r;
    bool linked = false;
    if (st.st_mode != 0 && rg_journal_keep(c, req, "unlink", -1, false, &st,
                                           r ? RG_ALLOW_KEPT : RG_ALLOW, &linked) == RG_REFUSE)
        return -EACCES;
    r = rg_sys_unlinkat(req->dirfd, req->path, flags);
    if (r < 0 && linked)
        rg_journal_unkeep(c, req, &st);
    return r;
}

int rg_guard_check_path(struct rg_ctx *c, const struct rg_request *req)
{
    if (!rg_flags_write(req->flags))
        return 0;
    if ((req->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
        return 0;
    bool follow = !(req->flags & O_NOFOLLOW);
    struct stat st;
    int r = rg_ask_path_stat(c, req, follow, &st);
    if (r < 0)
        return r;
    /* The open is the C library's own, which no hook sees: its old bytes
     * are kept now, or a journaled file is refused as rg_guard_open would. */
    if (st.st_mode != 0 && S_ISREG(st.st_mode) &&
        rg_journal_keep(c, req, (req->flags & O_TRUNC) ? "truncate" : "write", -1, follow, &st,
                        r ? RG_ALLOW_KEPT : RG_ALLOW, NULL) == RG_REFUSE)
        return -EACCES;
    return 0;
}
