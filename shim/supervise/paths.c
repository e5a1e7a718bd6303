/* rename, link, truncate and unlink, carried out by the supervisor in the
 * target's name with the shim's guard: the check and the call happen here, on names
 * resolved from the target's directories, so nothing the target does to its
 * memory afterwards can change what is written. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "core/syscall.h"
#include "guard/anchor.h"
#include "guard/ask.h"
#include "guard/calls.h"
#include "guard/journal/keep.h"
#include "os/clock.h"
#include "os/session.h"
#include "os/sys.h"
#include "supervise/supervise.h"
struct named {
    char raw[PATH_MAX], self[PATH_MAX];
    const char *path;
    bool own;         /* rewritten to the target's /proc entries */
    uint64_t resolve; /* for path from dfd (rg_sv_cross) */
    int dfd;
    int arg;             /* the target's dirfd, which dfd stands for */
    bool borrowed;       /* dfd is another name's, which closes it */
    struct rg_anchor at; /* for a rename: the name in its directory */
};

/* first: a name of the same call whose descriptor this one takes, where it
 * is resolved from the same dirfd of the target: one look at the target's
 * cwd (or descriptor) for both, as the kernel resolving both at one
 * instant, where two could tell a chdir or dup2 in between apart. */
static int name_beside(struct rg_sv_call *call, uint64_t addr, int dirfd, struct named *n,
                       const struct named *first)
{
    n->dfd = -1;
    n->borrowed = false;
    n->arg = dirfd;
    int r = rg_sv_need_target(call);
    if (r == 0)
        r = rg_sv_read_string(&call->target, addr, n->raw, sizeof n->raw);
    if (r < 0)
        return r;
    n->own =
        rg_sv_rewrite_self(n->raw, call->target.tgid, call->target.tid, n->self, sizeof n->self);
    n->path = n->own ? n->self : n->raw;
    n->resolve = RESOLVE_NO_MAGICLINKS;
    n->borrowed = first && first->dfd >= 0 && first->arg == dirfd && n->path[0] != '/';
    n->dfd = n->borrowed                          ? first->dfd
             : n->own || rg_sv_tree_proc(n->path) ? rg_sv_cross(&n->path, &n->resolve)
                                                  : rg_sv_dirfd(&call->target, dirfd, n->path);
    return n->dfd < 0 && n->dfd != AT_FDCWD ? n->dfd : 0;
}

static int name_of(struct rg_sv_call *call, uint64_t addr, int dirfd, struct named *n)
{
    return name_beside(call, addr, dirfd, n, NULL);
}

/* The names are per thread and outlive the call: a name never reached this
 * time must not close the last call's descriptor again. Per handler thread,
 * and off its stack for their size (two PATH_MAX paths each): no other
 * thread sees them, so they are no state shared between calls of others. */
/* A rename checks its names and then renames them: both are anchored to
 * their directories first (guard/anchor.h). */
static int anchor(struct named *n) { return rg_anchor_at(&n->at, n->dfd, n->path, n->resolve); }

/* The second name of a rename, sharing the first's directory where it may. */
static int anchor_beside(struct named *n, const struct named *first)
{
    return rg_anchor_beside(&n->at, &first->at, n->dfd, n->path, n->resolve);
}

static void drop(struct named *n)
{
    rg_anchor_drop(&n->at);
    if (n->dfd >= 0 && !n->borrowed)
        rg_sys_close(n->dfd);
    n->dfd = -1;
}

/* Renaming or removing the sealed table would take it from the processes
 * outside the tree that steer the session by its name; doing so to the
 * journal, the versions undo brings back. req names it. */
static int removes_sealed(struct rg_sv_call *call, const struct rg_request *req,
                          struct rg_sv_jdir *seen)
{
    struct rg_ctx *c = call->ctx;
    struct stat st;
    if (!c->sealed_ino)
        return 0;
    /* req->path is the anchor's name, set whenever anchoring succeeded; the
     * analyzer does not see rg_anchor_at write the per-thread name. */
    bool there =
        fstatat(req->dirfd, req->path, &st, /* NOLINT(clang-analyzer-core.NonNullParamChecker) */
                AT_SYMLINK_NOFOLLOW) == 0;
    enum rg_sv_sealed what = rg_sv_sealed_at_seen(c, seen, req->dirfd, req->path);
    if (!what && there && rg_sv_other_table_at(c, req->dirfd, req->path))
        what = RG_SV_TABLE;
    if (what)
        return rg_sv_sealed_refuse(call, req, there ? &st : NULL, what);
    return there ? rg_ask_sealed(c, req, &st) : 0;
}

/* A directory moved out of scope is judged by a walk of what it holds,
 * then moved: a walk slow enough for the watchdog to pass the turn on (a
 * large tree) let another handler carry out a rename of an unread file into
 * a part already walked, and the file left the roots unjudged. The tree
 * puts an existing file into a directory only by a rename or a link, so
 * these are carried out one at a time: what a walk saw is what moves.
 * Process-wide, not per supervisor: what it orders is the file system's
 * names, which any handler thread of the process may move. */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

static int renamed(struct rg_sv_call *call, const struct rg_request *req, const struct named *from,
                   unsigned flags)
{
    pthread_mutex_lock(&names_lock);
    int r = rg_sv_still_valid(call)
                ? rg_guard_rename(call->ctx, req, from->at.dirfd, from->at.name, flags)
                : -ESRCH;
    pthread_mutex_unlock(&names_lock);
    return r;
}

void rg_sv_rename(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    static _Thread_local struct named from = {.dfd = -1}, to = {.dfd = -1};
    int r = rg_rename_flags_valid((unsigned)sc->flags)
                ? name_of(call, sc->oldpath, sc->olddirfd, &from)
                : -EINVAL;
    if (r == 0)
        r = name_beside(call, sc->path, sc->dirfd, &to, &from);
    if (r == 0)
        r = anchor(&from);
    if (r == 0)
        r = anchor_beside(&to, &from);
    struct rg_request req = {.op = RG_OP_RENAME,
                             .call = sc->name,
                             .dirfd = to.at.dirfd,
                             .path = to.at.name,
                             .shown = to.raw};
    struct rg_request old = {.op = RG_OP_RENAME,
                             .call = sc->name,
                             .dirfd = from.at.dirfd,
                             .path = from.at.name,
                             .shown = from.raw};
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    if (r == 0)
        r = removes_sealed(call, &old, &seen);
    enum rg_sv_sealed what =
        r == 0 ? rg_sv_sealed_at_seen(call->ctx, &seen, to.at.dirfd, to.at.name) : RG_SV_UNSEALED;
    if (r == 0 && !what && rg_sv_other_table_at(call->ctx, to.at.dirfd, to.at.name))
        what = RG_SV_TABLE;
    if (what)
        r = rg_sv_sealed_refuse(call, &req, NULL, what);
    if (r == 0) {
        rg_sv_held_settle(call->held);
        r = renamed(call, &req, &from, (unsigned)sc->flags);
    }
    drop(&to);
    drop(&from);
    rg_sv_reply(call, r);
}

/* The file a link is to name, as the kernel finds it: O_PATH, its last
 * symbolic link followed with AT_SYMLINK_FOLLOW only; or -errno. */
static int source_of(const struct named *n, int flags)
{
    if (!n->path[0] && (flags & AT_EMPTY_PATH)) {
        int fd = fcntl(n->dfd, F_DUPFD_CLOEXEC, 0);
        return fd < 0 ? -errno : fd;
    }
    struct open_how how = {.flags =
                               O_PATH | O_CLOEXEC | (flags & AT_SYMLINK_FOLLOW ? 0 : O_NOFOLLOW),
                           .resolve = n->resolve};
    return rg_sys_openat2(n->dfd, n->path, &how, sizeof how);
}

/* The source is opened once, and judged on and linked through that
 * descriptor (guard/calls.h), never looked up by name again. Linked by
 * name, a name re-pointed between the look and the link brought in a file
 * never judged; taking that link back by name then removed whatever a
 * sibling of the tree had renamed onto the new name meanwhile, unkept.
 * Under --strict a kept version with a name outside the journal could be
 * written through it: a link from the journal is refused as one into it. */
static int link_checked(struct rg_sv_call *call, const struct named *from,
                        const struct rg_request *req, int flags)
{
    int fd = source_of(from, flags);
    if (fd < 0)
        return fd;
    enum rg_sv_sealed what = rg_sv_sealed_fd(call->ctx, fd);
    int r = what ? rg_sv_sealed_refuse(call, req, NULL, what) : 0;
    if (r == 0) {
        rg_sv_held_settle(call->held);
        pthread_mutex_lock(&names_lock);
        r = rg_sv_still_valid(call) ? rg_guard_link_fd(call->ctx, req, fd, flags) : -ESRCH;
        pthread_mutex_unlock(&names_lock);
    }
    rg_sys_close(fd);
    return r;
}

void rg_sv_link(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    static _Thread_local struct named from = {.dfd = -1}, to = {.dfd = -1};
    /* The kernel's answer to a flag it does not know, before any look. */
    int r = sc->flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH)
                ? -EINVAL
                : name_of(call, sc->oldpath, sc->olddirfd, &from);
    if (r == 0)
        r = name_of(call, sc->path, sc->dirfd, &to);
    if (r == 0)
        r = anchor(&to);
    if (r == 0) {
        struct rg_request req = {.op = RG_OP_LINK,
                                 .call = sc->name,
                                 .dirfd = from.dfd,
                                 .path = from.path,
                                 .to_dirfd = to.at.dirfd,
                                 .to_path = to.at.name};
        enum rg_sv_sealed what = rg_sv_sealed_at(call->ctx, to.at.dirfd, to.at.name);
        if (what)
            r = rg_sv_sealed_refuse(call, &req, NULL, what);
        else
            r = link_checked(call, &from, &req, sc->flags);
    }
    drop(&from);
    drop(&to);
    rg_sv_reply(call, r);
}

/* unlink(at): journaled, and with --guard-unlink judged, like the library's
 * (guard/calls.h), on the entry of the directory opened once. */
void rg_sv_unlink(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    static _Thread_local struct named n = {.dfd = -1};
    int r = name_of(call, sc->path, sc->dirfd, &n);
    if (r == 0)
        r = anchor(&n);
    struct rg_request req = {.op = RG_OP_UNLINK,
                             .call = sc->name,
                             .dirfd = n.at.dirfd,
                             .path = n.at.name,
                             .flags = O_WRONLY,
                             .shown = n.raw};
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    if (r == 0)
        r = removes_sealed(call, &req, &seen);
    if (r == 0) {
        rg_sv_held_settle(call->held);
        r = rg_sv_still_valid(call) ? rg_guard_unlink(call->ctx, &req, sc->flags) : -ESRCH;
    }
    drop(&n);
    rg_sv_reply(call, r);
}

/* The session's own truncate: what the file is now is what it knows. */
static void restamp(struct rg_ctx *c, const struct stat *st)
{
    struct rg_file f = rg_file_of(st);
    struct rg_entry *e = rg_entry_for(c, &f, true);
    struct rg_stamp now = rg_stamp_of(st);
    if (e)
        rg_entry_stamp(&c->table, e, &now, true, rg_now_ns());
}

/* truncate(2) by path becomes open + ftruncate here, so the inode checked is
 * the inode truncated. */
static int truncate_named(struct rg_sv_call *call, struct named *n, off_t length)
{
    struct open_how how = {.flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
                           .resolve = n->resolve};
    int fd = rg_sys_openat2(n->dfd, n->path, &how, sizeof how);
    if (fd < 0)
        return fd;
    struct stat st;
    int r = fstat(fd, &st) != 0    ? -errno
            : S_ISDIR(st.st_mode)  ? -EISDIR
            : !S_ISREG(st.st_mode) ? -EINVAL
                                   : 0;
    struct rg_request req = {
        .op = RG_OP_TRUNCATE, .call = "truncate", .dirfd = n->dfd, .path = n->path};
    enum rg_sv_sealed what = r == 0 ? rg_sv_sealed_fd(call->ctx, fd) : RG_SV_UNSEALED;
    if (r == 0 && !what && rg_sv_other_table_fd(call->ctx, fd, &st))
        what = RG_SV_TABLE;
    if (what)
        r = rg_sv_sealed_refuse(call, &req, &st, what);
    if (r == 0) {
        struct rg_file f = rg_file_of(&st);
        rg_sv_held_settle(call->held);
        enum rg_action act = rg_ask(call->ctx, &req, &f, fd, true);
        if (act != RG_REFUSE) /* whatever the length, as rg_guard_truncate */
            act = rg_journal_keep(call->ctx, &req, "truncate", fd, true, &st, act, NULL);
        r = act == RG_REFUSE ? -EACCES : 0;
        if (r == 0)
            r = rg_sys_ftruncate(fd, length);
    }
    if (r == 0 && fstat(fd, &st) == 0)
        restamp(call->ctx, &st);
    rg_sys_close(fd);
    return r;
}

void rg_sv_truncate(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    static _Thread_local struct named n;
    off_t length = (off_t)sc->length;
    int r = length < 0 ? -EINVAL : name_of(call, sc->path, sc->dirfd, &n);
    if (r == 0)
        r = rg_sv_still_valid(call) ? truncate_named(call, &n, length) : -ESRCH;
    if (length >= 0)
        drop(&n);
    rg_sv_reply(call, r);
}
