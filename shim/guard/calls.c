#include "guard/calls.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/content.h"
#include "core/policy.h"
#include "core/text.h"
#include "guard/ask.h"
#include "guard/critical.h"
#include "guard/fdmap.h"
#include "guard/journal/keep.h"
#include "guard/journal/remove.h"
#include "guard/log.h"
#include "guard/meta.h"
#include "guard/namehint.h"
#include "guard/readhash.h"
#include "guard/restamp.h"
#include "guard/scan.h"
#include "guard/sysopen.h"
#include "guard/tier/scope.h"
#include "guard/wopen.h"
#include "os/clock.h"
#include "os/session.h"
#include "os/sys.h"
int rg_open_unguarded(const struct rg_request *req) { return rg_open_paused(req, req->flags); }

int rg_open_outside(const struct rg_request *req) { return rg_open_now(req, req->flags); }

/* A read's entry, added if new: its inode's read hint (guard/ctx.h) tried
 * first. */
static inline struct rg_entry *entry_of_read(struct rg_ctx *c, const struct stat *st)
{
    if (c->table_state == RG_TABLE_BROKEN)
        return NULL;
    _Atomic uint32_t *hint = &c->read_hints[st->st_ino % RG_READ_HINTS];
    struct rg_entry *e = rg_entry_hinted(c, hint, st->st_dev, st->st_ino);
    if (e)
        return e;
    e = rg_table_find_or_add(&c->table, st->st_dev, st->st_ino);
    if (e)
        rg_entry_hint(c, hint, e);
    return e;
}

/* read_fd: the descriptor a read just opened, whose bytes may be hashed;
 * -1 for a restamp after the session's own write. by_dirfd, by_path: the
 * read's name (NULL: none), noted when the read is recorded anew
 * (guard/namehint.h); the re-read of a file already known notes nothing,
 * and costs nothing. */
static inline __attribute__((always_inline)) void
stamp(struct rg_ctx *c, const struct stat *st, int read_fd, int by_dirfd, const char *by_path)
{
    struct rg_file f = rg_file_of(st);
    struct rg_entry *e = read_fd >= 0 ? entry_of_read(c, st) : rg_entry_for(c, &f, true);
    struct rg_stamp now = rg_stamp_of(st);
    if (e && read_fd >= 0)
        now.reader = rg_scan_read(&c->scan, &c->table, (uint32_t)(e - c->table.entries) + 1);
    if (e && (read_fd >= 0 ? rg_stamp_read(&c->table, e, &now, read_fd)
                           : rg_entry_stamp(&c->table, e, &now, true, rg_now_ns()))) {
        atomic_fetch_add_explicit(&c->table.hdr->reads, 1, memory_order_relaxed);
        if (by_path)
            rg_namehint_note(c, by_dirfd, by_path, e);
    } else if (e) {
        /* A scan gives way to a look or a write, a view to another's view
         * (core/table.h); the common case, a re-read by the reader it
         * already names, is left as it is without a call. */
        uint32_t had = atomic_load_explicit(&e->reader, memory_order_relaxed);
        if (rg_reader_after(had, now.reader) != had)
            rg_entry_reread(&c->table, e, &now);
    } else if (c->table_state == RG_TABLE_OK) {
        rg_log_table_full(c);
    }
}

static void stamp_path(struct rg_ctx *c, int dirfd, const char *path, bool follow)
{
    struct stat st;
    if (rg_sys_fstatat(dirfd, path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(st.st_mode))
        stamp(c, &st, -1, AT_FDCWD, NULL);
}

/* An O_DIRECTORY open only ever succeeds on a directory, which is not a
 * read: tree walks (find, grep -r, git, tar) open every directory so. */
static bool may_be_read(const struct rg_ctx *c, int fd, int flags)
{
    return fd >= 0 && !(flags & (O_PATH | O_DIRECTORY)) && c->table_state != RG_TABLE_BROKEN;
}

/* Always inline: gcc split it into a test and a call, a frame more for every
 * read's record (about 4 instructions). */
static inline __attribute__((always_inline)) void note_opened(struct rg_ctx *c, int fd,
                                                              int by_dirfd, const char *by_path)
{
    struct stat st;
    if (rg_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        stamp(c, &st, fd, by_dirfd, by_path);
}

static inline __attribute__((always_inline)) void note_read(struct rg_ctx *c, int fd, int flags,
                                                            int by_dirfd, const char *by_path)
{
    if (may_be_read(c, fd, flags))
        note_opened(c, fd, by_dirfd, by_path);
}

void rg_note_read(struct rg_ctx *c, int fd, int flags) { note_read(c, fd, flags, AT_FDCWD, NULL); }

void rg_record_read(struct rg_ctx *c, const struct rg_request *req, int fd)
{
    note_read(c, fd, req->flags, req->dirfd, req->path);
}

/* The hook's tail call: no request, and no frame of the hook's own to keep
 * errno and the descriptor across the record. Nor does it keep errno: the
 * record's own steps are raw system calls, the clock's vDSO entry and
 * loads and stores, which leave it alone, and each call below it that can
 * move it keeps it itself, out of line, as the root test's directory
 * lookup does (the hash's pread, the clock's first reading, a stamp's nap,
 * a scan's prctl, the table-full warning): a saved errno was 13
 * instructions of every read (callgrind, rgbench's read_root). */
int rg_record_read_at(struct rg_ctx *c, int dirfd, const char *path, int fd)
{
    if (c->table_state != RG_TABLE_BROKEN) /* may_be_read's other tests are the hook's */
        note_opened(c, fd, dirfd, path);
    return fd;
}

int rg_guard_open_stat(struct rg_ctx *c, const struct rg_request *req, struct stat *st)
{
    if (rg_flags_write(req->flags)) {
        struct rg_write_open w;
        rg_open_write(req, &w);
        int fd = rg_guard_opened_write_stat(c, req, &w, st);
        if (fd < 0)
            st->st_mode = 0;
        return fd;
    }
    int fd = rg_open_paused(req, req->flags);
    if (fd < 0 || rg_sys_fstat(fd, st) != 0) {
        st->st_mode = 0;
        return fd;
    }
    rg_guard_opened_read_stat(c, req, fd, st);
    return fd;
}

void rg_guard_opened_read_stat(struct rg_ctx *c, const struct rg_request *req, int fd,
                               const struct stat *st)
{
    if (!rg_flags_write(req->flags) && may_be_read(c, fd, req->flags) && S_ISREG(st->st_mode) &&
        !(req->resolve == 0 && rg_read_outside_roots(c, req->path)))
        stamp(c, st, fd, req->dirfd, req->path);
}

long rg_guard_meta_change(struct rg_ctx *c, const struct rg_meta_file *f,
                          const struct rg_meta_call *call)
{
    if (call->sets_mtime)
        rg_journal_keep_retimed(c, f->dirfd, f->path, f->flags);
    return rg_guard_meta(c, f, call);
}

/* A link the session may make of a file it may write: a new name out of
 * guarded scope (outside the roots, or free) is one that writes go through
 * unseen, keeping nothing, so its bytes are kept now, as before a write. */
static int judge_link(struct rg_ctx *c, const struct rg_request *req, int fd, bool follow,
                      const struct stat *st)
{
    struct rg_file file = rg_file_of(st);
    enum rg_action act = rg_ask(c, req, &file, fd, follow);
    char abs[PATH_MAX];
    if (act == RG_REFUSE)
        return -EACCES;
    if (!rg_journal_on(c) ||
        rg_scope_of_name(c, req->to_dirfd, req->to_path, false, abs, sizeof abs) != RG_SCOPE_FREE)
        return 0;
    return rg_journal_keep(c, req, "link", fd, follow, st, act, NULL) == RG_REFUSE ? -EACCES : 0;
}

int rg_guard_link(struct rg_ctx *c, const struct rg_request *req, int flags)
{
    bool follow = flags & AT_SYMLINK_FOLLOW;
    struct rg_meta_file f = {req->dirfd, req->path,
                             (flags & AT_EMPTY_PATH) | (follow ? 0 : AT_SYMLINK_NOFOLLOW)};
    struct stat st;
    int r;
    if (rg_sys_fstatat(f.dirfd, f.path, &st, f.flags) == 0 && S_ISREG(st.st_mode) &&
        (r = judge_link(c, req, -1, follow, &st)) < 0)
        return r;
    struct rg_meta_call call = {
        SYS_linkat, {req->dirfd, (long)req->path, req->to_dirfd, (long)req->to_path, flags}, false};
    return (int)rg_guard_meta(c, &f, &call);
}

int rg_guard_link_fd(struct rg_ctx *c, const struct rg_request *req, int fd, int flags)
{
    struct stat st;
    int r;
    if (rg_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (r = judge_link(c, req, fd, true, &st)) < 0)
        return r;
    /* The descriptor's /proc name, followed, reaches the inode it holds
     * (a symbolic link's own, for an O_NOFOLLOW one), as its name did when
     * it was opened. A link by the program's empty name stays one: the
     * kernel's own check of who may link a descriptor so must still hold. */
    char self[RG_FD_LINK_MAX];
    rg_fd_link(self, fd);
    bool empty = (flags & AT_EMPTY_PATH) && !req->path[0];
    struct rg_meta_file f = {fd, NULL, 0};
    struct rg_meta_call call = {SYS_linkat,
                                {empty ? fd : AT_FDCWD, (long)(empty ? "" : self), req->to_dirfd,
                                 (long)req->to_path, empty ? AT_EMPTY_PATH : AT_SYMLINK_FOLLOW},
                                false};
    return (int)rg_guard_meta(c, &f, &call);
}

int rg_guard_truncate(struct rg_ctx *c, const struct rg_request *req, off_t length)
{
    struct stat st;
    enum rg_action act = rg_ask_path_stat(c, req, true, &st);
    if (act == RG_REFUSE)
        return -EACCES;
    /* Kept whatever the length: a truncate that loses no byte (growing the
     * file, or to its own size) still makes its bytes the session's own,
     * over which the journal keeps nothing more. */
    if (st.st_mode != 0 &&
        rg_journal_keep(c, req, "truncate", -1, true, &st, act, NULL) == RG_REFUSE)
        return -EACCES;
    int r = rg_sys_truncate(req->path, length);
    if (r == 0)
        stamp_path(c, AT_FDCWD, req->path, true);
    return r;
}

int rg_guard_ftruncate(struct rg_ctx *c, const char *call, int fd, off_t length)
{
    struct rg_fdslot s;
    struct stat st;
    char link[64], path[PATH_MAX];
    if (!rg_fd_peek(c, fd, &s) || s.opener != RG_OPENER_STANDIN || rg_sys_fstat(fd, &st) != 0)
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
    struct rg_request req = {
        .op = RG_OP_TRUNCATE, .call = call, .dirfd = AT_FDCWD, .path = shown, .flags = O_WRONLY};
    struct rg_file f = rg_file_of(&st);
    enum rg_action act = rg_ask(c, &req, &f, fd, true);
    if (act != RG_REFUSE) /* whatever the length, as rg_guard_truncate */
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
    /* With the journal on, the file is opened once, and what the policy
     * judges is the inode the journal keeps (git checkout unlinks every
     * file it replaces). Should that open fail, the path is looked up
     * again, and the call reports its own errno. */
    bool plain = false;
    int pfd = rg_journal_on(c) ? rg_journal_open(req, &st, &plain) : -1;
    /* Nothing by that name as the journal looked (rm -f conftest*): what
     * the unlink would report, with no second look, and no unlink that
     * could take a file made since, which nothing kept. */
    if (pfd == -ENOENT)
        return -ENOENT;
    enum rg_action act = pfd >= 0 ? rg_ask_stat(c, req, &st) : rg_ask_path_stat(c, req, false, &st);
    if (act == RG_REFUSE) {
        if (pfd >= 0)
            rg_sys_close(pfd);
        return -EACCES;
    }
    /* Under --strict (a sealed table) the journal is what lets the tree
     * remove a file it never read: one it cannot keep, the decision
     * judges again (a tree that filled the disk, or took the journal's
     * permissions by an ACL). */
    if (c->sealed_ino)
        act = RG_ALLOW_KEPT;
    bool linked = false;
    if (pfd >= 0)
        act = rg_journal_keep_opened(c, req, "unlink", pfd, plain, &st, act, &linked);
    else if (st.st_mode != 0)
        act = rg_journal_keep(c, req, "unlink", -1, false, &st, act, &linked);
    if (act == RG_REFUSE)
        return -EACCES;
    int r = c->sealed_ino && S_ISREG(st.st_mode) && rg_journal_on(c)
                ? rg_jremove_kept(c, req->dirfd, req->path, &st)
                : rg_sys_unlinkat(req->dirfd, req->path, flags);
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
    enum rg_action act = rg_ask_path_act(c, req, follow, &st, RG_SCOPE_UNKNOWN);
    if (act == RG_REFUSE)
        return -EACCES;
    /* The open is the C library's own, which no hook sees: its old bytes
     * are kept now, or a journaled file is refused as rg_guard_open_stat would. */
    if (st.st_mode != 0 && S_ISREG(st.st_mode) &&
        rg_journal_keep(c, req, (req->flags & O_TRUNC) ? "truncate" : "write", -1, follow, &st,
                        act == RG_ALLOW_KEPT ? RG_ALLOW_KEPT : RG_ALLOW, NULL) == RG_REFUSE)
        return -EACCES;
    if (act != RG_ALLOW_UNTRACKED)
        return 0;
    /* As the guarded open of an unread append: no record may stay. */
    struct rg_file f = rg_file_of(&st);
    struct rg_entry *e = rg_entry_for(c, &f, false);
    if (e)
        rg_entry_forget(e);
    return RG_CHECKED_UNREAD;
}
