/* The notification loop: several handler threads take turns on the one
 * listener (so a parallel build does not queue behind one slow open), each
 * with its own context sharing the session's table, plus the reaper that
 * settles held write descriptors and watches the turn. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/syscall.h"
#include "supervise/supervise.h"
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS /* Linux 6.6; older headers lack it */
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1UL
#endif
/* How long the end of a run waits for the calls still being carried out:
 * tens of microseconds each, unless one is stalled, which must not keep
 * the run from ending. */
#define RG_SV_FINISH_MS 1000
struct worker {
    int listener;
    enum rg_sv_level level;
    uint32_t number; /* 1.. : its name in the turn */
    struct rg_sv_turn *turn;
    struct rg_sv_held *held;
    struct rg_sv_ids *own; /* shared: one tree */
    struct rg_ctx ctx;
    size_t notif_size;
};

void rg_sv_reply(const struct rg_sv_call *call, long result)
{
    struct seccomp_notif_resp resp = {.id = call->req->id};
    if (result < 0)
        resp.error = (int)result;
    else
        resp.val = result;
    /* ENOENT: the target died or was interrupted; nothing is waiting. */
    ioctl(call->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

void rg_sv_continue(const struct rg_sv_call *call)
{
    struct seccomp_notif_resp resp = {.id = call->req->id,
                                      .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
    ioctl(call->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

int rg_sv_addfd(const struct rg_sv_call *call, int fd, bool cloexec, bool send)
{
    struct seccomp_notif_addfd a = {
        .id = call->req->id,
        .flags = send ? SECCOMP_ADDFD_FLAG_SEND : 0,
        .srcfd = (unsigned)fd,
        .newfd_flags = cloexec ? O_CLOEXEC : 0,
    };
    int r = ioctl(call->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
    return r < 0 ? -errno : r;
}

bool rg_sv_still_valid(const struct rg_sv_call *call)
{
    uint64_t id = call->req->id;
    return ioctl(call->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Reading /proc/TID/status costs a third of a read-open's time, and only
 * writes (and paths naming the caller) need it. */
int rg_sv_need_target(struct rg_sv_call *call)
{
    if (call->target.tgid)
        return 0;
    int r = rg_sv_target_load(&call->target, call->target.tid);
    if (r == 0 && call->ctx->actor)
        call->ctx->actor->pid = call->target.tgid;
    return r;
}

static void dispatch(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    if (!sc) { /* no guarded call: a namespace or a process to refuse, or unknown */
        if (!rg_sv_refuse_ns(call) && !rg_sv_reach(call))
            rg_sv_reply(call, -ENOSYS);
        return;
    }
    /* Every op named, no default: an op added to core/request.h is a
     * -Wswitch error here until the supervisor carries it out. */
    switch (sc->op) {
    case RG_OP_OPEN: rg_sv_open(call, sc); break;
    case RG_OP_RENAME: rg_sv_rename(call, sc); break;
    case RG_OP_LINK: rg_sv_link(call, sc); break;
    case RG_OP_UNLINK: rg_sv_unlink(call, sc); break;
    case RG_OP_META: rg_sv_meta(call, sc); break;
    case RG_OP_XATTR: rg_sv_xattr(call, sc); break;
    case RG_OP_TRUNCATE: rg_sv_truncate(call, sc); break;
    /* A spawn's file action is libc's, never a system call of its own. */
    case RG_OP_SPAWN_OPEN: rg_sv_reply(call, -ENOSYS); break;
    }
}

static struct rg_sv_call call_of(struct worker *w, struct seccomp_notif *req)
{
    return (struct rg_sv_call){.listener = w->listener,
                               .level = w->level,
                               .held = w->held,
                               .req = req,
                               .ctx = &w->ctx,
                               .target = {.tid = (int32_t)req->pid, .umask = RG_SV_UMASK_UNKNOWN}};
}

/* The call is decoded once. Most of what a dynamic loader opens is
 * answered at once, before the caller's credentials, or anything else in
 * /proc, are looked at. */
static void handle(struct worker *w, struct seccomp_notif *req)
{
    struct rg_sv_call call = call_of(w, req);
    struct rg_syscall sc;
    uint64_t args[6];
    memcpy(args, req->data.args, sizeof args);
    bool known = rg_syscall_decode(req->data.nr, args, &sc);
    if (!known && rg_sv_changes_ids(req->data.nr)) {
        /* Noted before the call can run: a caller whose ids it changed
         * traps after it, and is looked at. */
        rg_sv_ids_note(w->own, req->data.nr, (const uint64_t *)req->data.args);
        rg_sv_continue(&call);
        return;
    }
    if (known && sc.op == RG_OP_OPEN && rg_sv_open_continues(&call, &sc))
        return;
    struct rg_actor actor = {.err_fd = -1};
    actor.pid = actor.tid = call.target.tid;
    w->ctx.actor = &actor;
    struct rg_sv_creds creds;
    int r = rg_sv_creds_enter(&call.target, w->own, &creds);
    if (r < 0)
        rg_sv_reply(&call, r);
    else
        dispatch(&call, known ? &sc : NULL);
    rg_sv_creds_leave(&creds);
    w->ctx.actor = NULL;
    if (actor.err_fd >= 0)
        close(actor.err_fd);
}

/* RECV fails with ENOENT for a notification whose caller died before it
 * was taken, and, once no process of the tree is left, at once and for
 * ever: the listener then polls as hung up. A handler that went on asking
 * spun on a CPU until readguard exited, through its whole clean-up. */
static bool tree_gone(int listener)
{
    struct pollfd p = {.fd = listener, .events = POLLIN};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP);
}

/* The thread whose turn it is waits on the listener and carries out what
 * it receives, keeping its turn unless the call stalls (turn.c). */
static void *work(void *arg)
{
    struct worker *w = arg;
    struct seccomp_notif *req = calloc(1, w->notif_size);
    if (!req)
        return NULL;
    rg_sv_turn_take(w->turn);
    for (;;) {
        memset(req, 0, w->notif_size);
        if (ioctl(w->listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
            if (errno == EINTR || (errno == ENOENT && !tree_gone(w->listener)))
                continue;
            break; /* the tree has exited */
        }
        rg_sv_turn_begin(w->turn, w->number);
        handle(w, req);
        if (!rg_sv_turn_end(w->turn, w->number))
            rg_sv_turn_take(w->turn); /* it stalled: another took over */
    }
    rg_sv_turn_give(w->turn);
    free(req);
    return NULL;
}

struct keeper {
    struct rg_sv_held *held;
    struct rg_sv_turn *turn;
};

/* The reaper settles held copies, and is the turn's watchdog: one thread,
 * waking every 2 ms while copies are held, and when a call may have
 * stalled. */
static void *reap(void *arg)
{
    struct keeper *k = arg;
    for (;;) {
        rg_sv_held_settle(k->held);
        if (rg_sv_held_wait(k->held, rg_sv_turn_timer(k->turn)))
            rg_sv_turn_watch(k->turn);
    }
    return NULL;
}

int rg_sv_spawn(void *(*fn)(void *), void *arg)
{
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int r = pthread_create(&th, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return -r;
}

/* The keeper of held, on a thread of its own, and sv once it runs; on
 * failure, nothing of it is left. */
static int start_keeper(struct rg_sv_held *held, struct rg_sv *sv)
{
    struct rg_sv_turn *turn = rg_sv_turn_new();
    struct keeper *keeper = malloc(sizeof *keeper);
    int r = turn && keeper ? 0 : -ENOMEM;
    if (r == 0) {
        *keeper = (struct keeper){held, turn};
        r = rg_sv_spawn(reap, keeper);
    }
    if (r != 0) {
        free(keeper);
        free(turn);
        return r;
    }
    *sv = (struct rg_sv){held, turn};
    return 0;
}

/* A context of a thread's own, sharing proto's table. Not its cache of
 * git's rules: each context makes its own on first use, guarded by its own
 * lock, so a copied pointer would be two threads in one cache. */
static void own_context(struct rg_ctx *to, const struct rg_ctx *proto)
{
    *to = *proto;
    to->git = NULL;
}

/* nthreads workers on listener, numbered from 1 for sv's turn, each with
 * a context of its own copied from proto. */
static int start_workers(int listener, enum rg_sv_level level, const struct rg_ctx *proto,
                         int nthreads, const struct rg_sv *sv, struct rg_sv_ids *own,
                         size_t notif_size)
{
    for (int i = 0; i < nthreads; i++) {
        struct worker *w = calloc(1, sizeof *w);
        if (!w)
            return -ENOMEM;
        w->listener = listener;
        w->level = level;
        w->number = (uint32_t)i + 1;
        w->turn = sv->turn;
        w->held = sv->held;
        w->own = own;
        own_context(&w->ctx, proto);
        w->notif_size = notif_size;
        int r = rg_sv_spawn(work, w);
        if (r != 0)
            return r;
    }
    return 0;
}

int rg_sv_start(int listener, enum rg_sv_level level, const struct rg_ctx *proto, int nthreads,
                struct rg_sv *sv)
{
    struct seccomp_notif_sizes sizes;
    if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
        return -errno;
    size_t notif_size = sizes.seccomp_notif > sizeof(struct seccomp_notif)
                            ? sizes.seccomp_notif
                            : sizeof(struct seccomp_notif);
    /* Allocated before the signals are blocked, so no failure leaves them so. */
    struct rg_ctx *shared = malloc(sizeof *shared);
    struct rg_sv_ids *own = calloc(1, sizeof *own);
    struct rg_sv_held *held = NULL;
    if (shared) {
        own_context(shared, proto);
        held = own ? rg_sv_held_new(shared) : NULL;
    }
    if (!held) {
        free(own);
        free(shared);
        return -ENOMEM;
    }
    /* The caller and the handler hand over on one CPU, as a synchronous
     * call would: fewer migrations per round trip. Older kernels lack it. */
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
    /* Signals for readguard are for its main thread, which forwards them. */
    sigset_t all, old;
    sigfillset(&all);
    /* A blocked SIGBUS from a fault kills whatever its handler (pages.c). */
    sigdelset(&all, SIGBUS);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rg_sv_ids_own(own);
    int r = start_keeper(held, sv);
    if (r == 0)
        r = start_workers(listener, level, proto, nthreads, sv, own, notif_size);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return r;
}

void rg_sv_finish(const struct rg_sv *sv)
{
    if (!sv->turn)
        return; /* never started */
    rg_sv_turn_drain(sv->turn, RG_SV_FINISH_MS);
    rg_sv_held_settle(sv->held);
}
