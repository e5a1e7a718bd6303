/* open, openat and creat, carried out by the supervisor in the
 * target's name: it resolves the path from the target's cwd or dirfd, opens
 * the file itself with the shim's guard (so a write is checked on the inode
 * actually opened, never on a path the target could swap afterwards), and
 * installs the descriptor in the target. The opens that need neither a
 * check nor a record go on to the kernel unchanged (passthrough.c). */
#include <errno.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/syscall.h"
#include "guard/anchor.h"
#include "guard/calls.h"
#include "guard/fdmap.h"
#include "guard/restamp.h"
#include "os/sys.h"
#include "supervise/supervise.h"
struct open_args {
    const char *call;
    int dirfd;
    uint64_t path;
    int flags;
    mode_t mode;
};

/* openat2 never gets here: the filter fails it with ENOSYS (filter.c), as
 * its flags are in memory. Should it ever, it gets the same answer. */
static int decode(const struct rg_syscall *sc, struct open_args *a)
{
    *a = (struct open_args){.call = sc->name,
                            .dirfd = sc->dirfd,
                            .path = sc->path,
                            .flags = sc->flags,
                            .mode = sc->mode};
    return sc->flags_in_memory ? -ENOSYS : 0;
}

/* Is pid one of the supervisor's threads? Each has a /proc/TID of its own,
 * which readdir does not list but a path reaches (its mem, its fd/). */
static bool own_thread(int32_t pid)
{
    char task[48];
    snprintf(task, sizeof task, "/proc/self/task/%d", (int)pid);
    return access(task, F_OK) == 0;
}

/* The process whose /proc file fd is, by the path the kernel gives it: 0
 * for a file that is not in /proc or not a process's, -1 when it cannot
 * tell. The path is the kernel's, never a name the target wrote. */
static int32_t proc_owner(int fd, const struct stat *st)
{
    /* Process-wide: the supervisor's own /proc, the same for every handler
     * thread; atomic, as several may look it up at once. */
    static _Atomic dev_t proc_dev;
    dev_t dev = atomic_load_explicit(&proc_dev, memory_order_relaxed);
    struct stat proc;
    if (!dev && stat("/proc/self", &proc) == 0)
        atomic_store_explicit(&proc_dev, dev = proc.st_dev, memory_order_relaxed);
    if (st->st_dev != dev)
        return 0;
    char link[64], where[256];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, where, sizeof where - 1);
    if (n <= 0)
        return -1;
    where[n] = '\0';
    return rg_sv_proc_pid(where);
}

/* What the target may never be handed, whatever the policy says: a /proc
 * file of the supervisor itself (reached through a symlink that still says
 * "self", such as /etc/mtab -> ../proc/self/mounts with a writable twist,
 * or by a thread's id), and under --strict the session's table (a
 * write-open of it is refused by the guard, with its reason; a read-open
 * quietly, as tools that list sessions open every table they find). st is
 * fd's, or NULL if fstat failed. owner: proc_owner's answer. */
static bool forbidden(const struct rg_sv_call *call, int32_t owner, const struct stat *st)
{
    return st && (owner < 0 || (owner > 0 && (owner == (int32_t)getpid() || own_thread(owner))) ||
                  rg_ctx_sealed(call->ctx, st->st_dev, st->st_ino));
}

/* Hands fd to the target. O_TRUNC waits until the descriptor is installed
 * (an EMFILE there must leave the file as it was), then the answer goes.
 * read: a read recorded only once installed (plain_read), stated st. */
static void hand_over(struct rg_sv_call *call, int fd, const struct open_args *a, bool trunc,
                      const struct rg_request *read, const struct stat *st)
{
    struct rg_fdslot slot;
    /* A touch stand-in (read-only, see guard/calls.c) is no writer, nor is
     * an append --allow-append let through unread: held, its let-go moves
     * the append stamp on, as the shim's does (guard/restamp.c). */
    bool taken = rg_fd_take(call->ctx, fd, &slot);
    bool writer = taken && slot.opener >= 0;
    bool append = taken && slot.opener == RG_OPENER_APPEND;
    bool cloexec = a->flags & O_CLOEXEC;
    /* An append's copy is held before the caller has the descriptor: the
     * caller may append and exit, and the next appender's settle must find
     * it, or the stamp would not have moved on yet and the file be kept
     * again. A copy of its own, for the holder may die meanwhile. */
    int early = append ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (early >= 0)
        rg_sv_held_add(call->held, early, slot.dev, slot.ino, call->target.tgid, RG_SV_HELD_PENDING,
                       true);
    /* A read is recorded between the descriptor's install and the answer:
     * answered first, the caller could go on to a rename the next handler
     * judges before the record, when this thread is preempted past the
     * turn's stall (a refusal of a file just read, at load 8). */
    int there = rg_sv_addfd(call, fd, cloexec, !trunc && !read);
    if (early >= 0)
        rg_sv_held_placed(call->held, early, there < 0 ? -1 : there);
    if (read && there >= 0)
        rg_guard_opened_read_stat(call->ctx, read, fd, st);
    if (there >= 0 && trunc) {
        int r = rg_sys_ftruncate(fd, 0);
        rg_sv_reply(call, r < 0 ? r : there);
    } else if (there < 0 || read) {
        rg_sv_reply(call, there);
    }
    if ((writer || (append && early < 0)) && there >= 0) {
        rg_sv_held_add(call->held, fd, slot.dev, slot.ino, call->target.tgid, there, append);
        return;
    }
    if (writer) {
        rg_fd_track(call->ctx, fd, slot.dev, slot.ino, slot.opener, NULL);
        rg_note_close(call->ctx, fd);
    }
    rg_sys_close(fd);
}

/* LOOK_OTHER also when the look failed otherwise: the open then finds out
 * for itself. */
enum look { LOOK_OTHER, LOOK_MISSING, LOOK_FIFO, LOOK_REGULAR };

/* The look before a blocking open: what path is. */
static enum look look_at(int dfd, const char *path, int flags)
{
    struct stat st;
    int r = rg_sys_fstatat(dfd, path, &st, flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0);
    if (r == -ENOENT)
        return LOOK_MISSING;
    if (r != 0)
        return LOOK_OTHER;
    return S_ISFIFO(st.st_mode) ? LOOK_FIFO : S_ISREG(st.st_mode) ? LOOK_REGULAR : LOOK_OTHER;
}

/* Most of the opens a build makes that find a file: a read-only open of
 * what the look found a regular file. It is opened as the caller asked,
 * without our O_NONBLOCK (which a regular file ignores), so nothing is
 * taken off again (an fcntl per open). The file may be replaced by a FIFO
 * or a device between the look and the open: then this handler waits in
 * the open as the caller's own open would, and the watchdog passes the turn
 * on (turn.c), as for any call that stalls. */
static bool plain_read(const struct open_args *a, enum look look)
{
    return look == LOOK_REGULAR && (a->flags & O_ACCMODE) == O_RDONLY &&
           !rg_flags_write(a->flags) && !(a->flags & RG_O_CREATES);
}

/* The open of a plain read (or none), made before the notification id is
 * checked: nothing is recorded until ADDFD has installed the descriptor,
 * and ADDFD succeeds only while the call is pending, which proves, as the
 * id's check did, that the caller lived from its call until then and so
 * that the path, cwd and descriptor read from /proc/TID were its own. A
 * read-only open of a regular file changes nothing, so an open made for a
 * caller that died (or a tid reused meanwhile) is closed unseen. The
 * record lands after the descriptor is installed and before the answer
 * (hand_over), so nothing the caller does once its open returns can be
 * judged without it. */
static int open_stated(const struct rg_request *req, struct stat *st)
{
    int fd = rg_open_unguarded(req);
    if (fd < 0 || rg_sys_fstat(fd, st) != 0)
        st->st_mode = 0;
    return fd;
}

/* The call was answered by another thread (a FIFO's), or before any open
 * of ours: nothing more to reply. */
#define ANSWERED (-EINPROGRESS)

/* One open carried out for the caller: how, decided from its flags and
 * one look at the path before anything is opened. */
struct opening {
    const struct open_args *a;
    const char *path;
    int dfd;
    enum look look;
    bool writes, changes, late_trunc, nonblock, plain, later;
    struct rg_request req;
};

static void plan(struct opening *o, const struct rg_sv_call *call, const struct open_args *a,
                 const char *path, int dfd, bool own_proc, uint64_t resolve, const char *shown)
{
    *o = (struct opening){.a = a, .path = path, .dfd = dfd};
    o->writes = rg_flags_write(a->flags);
    o->changes = o->writes || (a->flags & O_CREAT);
    /* O_TRUNC waits until the descriptor is installed, unless the policy
     * would read the flags differently without it (--allow-append). */
    o->late_trunc = o->writes && (a->flags & O_TRUNC) && !(a->flags & O_APPEND) &&
                    (a->flags & O_ACCMODE) != O_RDONLY;
    /* The policy judges the caller's flags: touch(1) is told by its
     * O_NOCTTY, which the guard adds to every open the supervisor makes
     * (guard/sysopen.h), so that no tty becomes the supervisor's own. */
    int flags = (a->flags | O_CLOEXEC) & ~(o->late_trunc ? O_TRUNC : 0);
    /* Our open must never block (a FIFO without its other end), nor leak
     * into a child of the supervisor. Borrowing O_NONBLOCK must not make an
     * open look like touch(1) (core/request.h): such an open looks for a
     * FIFO first instead. */
    bool nonblock = !(a->flags & O_NONBLOCK) && !rg_flags_touch(flags | O_NONBLOCK);
    /* A blocking read-open looks for a FIFO first too: a non-blocking reader
     * of ours would let a writer in and out before the reader it stands for
     * opened, leaving that reader waiting for a writer already gone. */
    bool reads = (a->flags & O_ACCMODE) == O_RDONLY;
    o->look = (!nonblock || reads) && !(a->flags & O_NONBLOCK) ? look_at(dfd, path, a->flags)
                                                               : LOOK_OTHER;
    o->plain = plain_read(a, o->look);
    o->nonblock = nonblock && !o->plain;
    /* Under --strict a plain read of a path that does not reach the
     * caller's /proc entries is recorded once installed: every call of the
     * tree waits for this handler. Under --supervise the library's calls do
     * not, and a write-open the caller's parent makes once it exits could
     * come before the record. */
    o->later = o->plain && !own_proc && call->level == RG_SV_STRICT;
    o->req = (struct rg_request){
        .op = RG_OP_OPEN,
        .call = a->call,
        .dirfd = dfd,
        .path = path,
        .flags = flags | (o->nonblock ? O_NONBLOCK : 0),
        .mode = a->mode & ~call->target.umask & 07777,
        .resolve = resolve,
        .shown = shown,
    };
}

/* Most of a compiler's opens are probes of include and library directories
 * for a file that is not there. When the look finds nothing and the open
 * cannot create, that is the answer, with the caller's rights: nothing is
 * opened, recorded or changed, so the id need not be checked again (an
 * answer to a notification no longer pending goes nowhere), nor the open
 * made. A file made meanwhile is a file made after the call, as without
 * readguard. (Where our open would have refused a /proc magic link on the
 * way, ELOOP, the caller gets ENOENT: nothing is opened either way.) A
 * blocking open of a FIFO is answered by the FIFO's own thread. */
static bool answered_by_look(const struct rg_sv_call *call, const struct opening *o)
{
    const struct open_args *a = o->a;
    if (o->look == LOOK_MISSING && !(a->flags & RG_O_CREATES)) {
        rg_sv_reply(call, -ENOENT);
        return true;
    }
    return o->look == LOOK_FIFO &&
           rg_sv_fifo_wait(call, o->dfd, o->path, a->flags, o->req.resolve, -1);
}

/* Under --strict, would this write or create reach the session's journal
 * or log (jseal.c)? Judged on the directory the name is in, before anything
 * is created there; the descriptor is judged again once open, for a final
 * symbolic link that led there. */
static enum rg_sv_sealed into_sealed(const struct rg_sv_call *call, const struct opening *o)
{
    /* Per handler thread, and off its stack for its size (a PATH_MAX name). */
    static _Thread_local struct rg_anchor at;
    if (!call->ctx->sealed_ino)
        return RG_SV_UNSEALED;
    /* A bare name from the caller's cwd: its directory is o->dfd itself,
     * readguard's own descriptor of that cwd (the tree can neither move nor
     * dup2 over it), and a directory's "." is itself: the anchor would
     * open the very directory again, at an openat2 and a close per create. */
    if (o->a->dirfd == AT_FDCWD && o->dfd >= 0 && !strchr(o->path, '/'))
        return rg_sv_sealed_at(call->ctx, o->dfd, o->path);
    if (rg_anchor_at(&at, o->dfd, o->path, o->req.resolve) != 0)
        return RG_SV_UNSEALED;
    enum rg_sv_sealed what = rg_sv_sealed_at(call->ctx, at.dirfd, at.name);
    rg_anchor_drop(&at);
    return what;
}

/* Our open, judged by the guard: the descriptor, ANSWERED, or -errno.
 * *st: its one fstat, the guard's, for the record and every test after
 * (the descriptor's inode cannot change); st_mode 0 when there is none. */
static int open_judged(struct rg_sv_call *call, struct opening *o, struct stat *st)
{
    st->st_mode = 0;
    enum rg_sv_sealed what = o->changes ? into_sealed(call, o) : RG_SV_UNSEALED;
    if (what)
        return rg_sv_sealed_refuse(call, &o->req, NULL, what);
    if (o->writes)
        rg_sv_held_settle(call->held);
    int fd = o->later                  ? open_stated(&o->req, st)
             : rg_sv_still_valid(call) ? rg_guard_open_stat(call->ctx, &o->req, st)
                                       : -ESRCH;
    bool fifo_read = fd >= 0 && (o->a->flags & O_ACCMODE) == O_RDONLY && S_ISFIFO(st->st_mode);
    if ((fifo_read || fd == -ENXIO) && o->nonblock &&
        rg_sv_fifo_wait(call, o->dfd, o->path, o->a->flags, o->req.resolve, fd))
        return ANSWERED;
    return fd;
}

/* Under --strict, a /proc file of a process outside the tree opened to be
 * written: its mem is that process's code and data (reach.c). */
static bool outside_tree(const struct rg_sv_call *call, const struct opening *o, int32_t owner)
{
    return call->level == RG_SV_STRICT && o->changes && owner > 0 && !rg_sv_in_tree(owner);
}

/* What the caller must not be handed, though the guard let it open: the
 * supervisor's own files, and under --strict the journal for a change. */
static int checked(struct rg_sv_call *call, struct opening *o, int fd, const struct stat *st)
{
    const struct stat *known = st->st_mode ? st : NULL;
    enum rg_sv_sealed what =
        o->changes && call->ctx->sealed_ino ? rg_sv_sealed_fd(call->ctx, fd) : RG_SV_UNSEALED;
    if (!what && o->changes && known && rg_sv_other_table_fd(call->ctx, fd, known))
        what = RG_SV_TABLE;
    int r = fd;
    int32_t owner = known ? proc_owner(fd, known) : 0;
    if (forbidden(call, owner, known))
        r = -EACCES;
    else if (outside_tree(call, o, owner)) {
        rg_sv_say_outside(call, "a write-open of another process's /proc file");
        r = -EACCES;
    } else if (what)
        r = rg_sv_sealed_refuse(call, &o->req, known, what);
    if (r != fd) {
        rg_note_close(call->ctx, fd);
        rg_sys_close(fd);
    }
    return r;
}

static void open_for(struct rg_sv_call *call, const struct open_args *a, const char *path,
                     bool own_proc)
{
    const char *shown = path;
    uint64_t resolve = RESOLVE_NO_MAGICLINKS;
    int dfd = own_proc ? rg_sv_cross(&path, &resolve) : rg_sv_dirfd(&call->target, a->dirfd, path);
    if (dfd < 0 && dfd != AT_FDCWD) {
        rg_sv_reply(call, dfd);
        return;
    }
    struct opening o;
    struct stat st;
    plan(&o, call, a, path, dfd, own_proc, resolve, path == shown ? NULL : shown);
    int fd = answered_by_look(call, &o) ? ANSWERED : open_judged(call, &o, &st);
    if (dfd >= 0)
        rg_sys_close(dfd);
    if (fd >= 0)
        fd = checked(call, &o, fd, &st);
    if (fd < 0) {
        if (fd != ANSWERED)
            rg_sv_reply(call, fd);
        return;
    }
    /* F_SETFL changes only the status flags (O_APPEND, O_NONBLOCK...), so
     * the caller's own are what the description holds without ours: no
     * F_GETFL needed. */
    if (o.nonblock)
        fcntl(fd, F_SETFL, a->flags);
    bool stated = st.st_mode != 0;
    /* A write's st is the guard's, taken before it judged (no second
     * fstat). A file empty then holds only bytes written since by others,
     * which a truncation at that instant, inside the caller's call, would
     * have left as they are: skipping it is that outcome. */
    bool trunc = o.late_trunc && stated && S_ISREG(st.st_mode) && st.st_size > 0;
    hand_over(call, fd, a, trunc, o.later && stated ? &o.req : NULL, &st);
}

void rg_sv_open(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    struct open_args a;
    char path[PATH_MAX], self[PATH_MAX];
    int r = decode(sc, &a);
    if (r < 0) {
        rg_sv_reply(call, r);
        return;
    }
    if ((r = rg_sv_read_string(&call->target, a.path, path, sizeof path)) < 0) {
        rg_sv_reply(call, r);
        return;
    }
    bool maybe_self = rg_sv_names_self(path);
    if ((rg_flags_write(a.flags) || (a.flags & O_CREAT) || maybe_self) &&
        (r = rg_sv_need_target(call)) < 0) {
        rg_sv_reply(call, r);
        return;
    }
    bool own = maybe_self &&
               rg_sv_rewrite_self(path, call->target.tgid, call->target.tid, self, sizeof self);
    open_for(call, &a, own ? self : path, own || (maybe_self && rg_sv_tree_proc(path)));
}
