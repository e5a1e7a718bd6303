#include "preload/context.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/envp.h"
#include "core/hot.h"
#include "core/settings.h"
#include "guard/critical.h"
#include "guard/journal/end.h"
#include "guard/restamp.h"
#include "os/exec_target.h"
#include "os/libcvar.h"
#include "os/members.h"
#include "os/nextsym.h"
#include "os/symver.h"
#include "os/sys.h"
#include "preload/attach.h"
#include "preload/handoff.h"
#include "preload/stdfds.h"

enum { UNINIT, INITING, READY = RG_PRELOAD_READY };

/* The one instance: the guard's context, and what only this process's own
 * lifecycle needs around it. */
static struct {
    /* The programs this process and its children exec'd, as looked at
     * (os/exec_target.h): read by every exec, vfork children's included,
     * and written by an exec that is not a fork's. Before the fields every
     * process writes at start: at the end of self, after the context, its
     * pages were written by nothing else, and an exec of a process that
     * forks none (nice, env, timeout) paid two page faults more. */
    struct rg_exec_cache exec_cache;
    /* Then what every process reads and writes at start and exit
     * (rg_start, rg_exit), which then lands on the first page of .bss: the
     * page ld.so zeroes, so has written, anyway (.bss starts within a
     * page), and no page fault of its own in the common case of short
     * paths. */
    _Atomic int state; /* UNINIT, INITING, READY */
    /* READGUARD_OWNER as the process started, or NULL (owner_from_env). */
    bool started;
    const char *start_owner;
    int32_t owner_pid; /* set when this process created the session */
    /* All this process's looks for a session's members, together: the
     * prunes at the session's creation and the look at its exit. */
    struct rg_exec_wait members_wait;
    /* What execs re-inject (preload/handoff.h). Written before main() runs,
     * or by the thread that creates the session, and only read after that. */
    struct rg_exec_env exec_env;
    /* Then all that a fork writes, on one page (aligned so that it never
     * straddles two): this lock and the context's first words (guard/ctx.h).
     *
     * Held by the thread that sets the context up, and by a thread that
     * forks (pthread_atfork below): a child must never be born with the
     * context half set up, as a state INITING no thread of the child will
     * ever finish. */
    _Alignas(64) _Atomic int init_lock;
    _Atomic bool had_child; /* rg_note_child */
    /* Beside the lock, as the first hook writes both: after the 196 KiB
     * of ctx and room it cost each process that sets the context up a page
     * fault of its own (a copy of the file's page, data.ld). */
    pthread_once_t fork_handlers;
    /* Set once they are: every fork reads it, on the line it locks. */
    _Atomic bool fork_handlers_set;
    struct rg_ctx ctx;
    struct rg_attach_room room; /* what the context and environ point into */
} self = {.fork_handlers = PTHREAD_ONCE_INIT};
/* One 64-byte line, so one page, whatever the fields before it grow to. */
_Static_assert(offsetof(__typeof__(self), fork_handlers_set) + sizeof self.fork_handlers_set <=
                   offsetof(__typeof__(self), init_lock) + 64,
               "the first hook's writes of self share the init lock's line");

/* What context.h's inline tests read: the state and the descriptor map of
 * the one instance, fixed at load time. */
const struct rg_preload_view rg_preload_view_ = {&self.state, &self.ctx};

static void lock(_Atomic int *l)
{
    while (atomic_exchange_explicit(l, 1, memory_order_acquire))
        sched_yield();
}

static void unlock(_Atomic int *l) { atomic_store_explicit(l, 0, memory_order_release); }

/* The creator of a session may exec (a shell runs its last command that
 * way); the pid survives exec, so the new image still owns the session.
 * The variable as the process started, read before main(); a hook that runs
 * earlier (from another library's constructor) reads it itself. */
RG_START_TEXT static int32_t owner_from_env(void)
{
    const char *s = self.started ? self.start_owner : getenv(RG_ENV_OWNER);
    /* Exactly our pid: "123x" owns nothing, nor does a number no pid has. */
    int32_t pid = 0;
    if (!s || !*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || pid > (INT32_MAX - 9) / 10)
            return 0;
        pid = pid * 10 + (*s - '0');
    }
    return pid == rg_sys_getpid() ? pid : 0;
}

static void init(struct rg_ctx *c)
{
    const char *path = getenv(RG_ENV_SESSION);
    if (!path || !*path)
        self.owner_pid = rg_attach_new(c, &self.room, &self.exec_env, &self.members_wait);
    else if (rg_attach_joined(c, &self.room, path))
        self.owner_pid = owner_from_env();
}

struct rg_ctx *rg_enter_first(void)
{
    /* Registered before the lock is first taken: a fork can then never copy
     * it held. Signals are blocked, so the holder is another thread, which
     * does not wait on us. */
    rg_fork_handlers();
    lock(&self.init_lock);
    if (atomic_load_explicit(&self.state, memory_order_relaxed) != READY) {
        atomic_store_explicit(&self.state, INITING, memory_order_relaxed);
        init(&self.ctx);
        atomic_store_explicit(&self.ctx.map_pid, (int32_t)rg_sys_getpid(), memory_order_relaxed);
        atomic_store_explicit(&self.state, READY, memory_order_release);
    }
    unlock(&self.init_lock);
    return &self.ctx;
}

/* Is the context set up? Stable while init_lock is held: only its holder
 * moves the state on. */
static bool ready_locked(void)
{
    return atomic_load_explicit(&self.state, memory_order_relaxed) == READY;
}

/* fork() runs these; the forking thread takes every lock of the context, so
 * the child gets each one free and the state behind it whole. _Fork() runs
 * none: see the README (Hardening). Order: init, then the descriptor map, as
 * no holder of the map lock ever waits for init. */
static void before_fork(void)
{
    rg_note_child();
    rg_exec_cache_share(&self.exec_cache);
    lock(&self.init_lock);
    if (ready_locked()) {
        lock(&self.ctx.overflow_lock);
        lock(&self.ctx.spawn_dirs_lock);
    }
}

/* Only the locks before_fork took: a shell that forks for every command and
 * never sets the context up writes one page of it, not three (each a
 * copy-on-write fault in the parent and again in the child). */
RG_START_TEXT static void after_fork(void)
{
    if (ready_locked()) {
        unlock(&self.ctx.spawn_dirs_lock);
        unlock(&self.ctx.overflow_lock);
    }
    unlock(&self.init_lock);
}

RG_START_TEXT static void after_fork_child(void)
{
    if (ready_locked()) {
        rg_scan_forget(&self.ctx.scan);
        /* Learnt at its first close (guard/restamp.c): no getpid here. */
        atomic_store_explicit(&self.ctx.map_pid, 0, memory_order_relaxed);
    }
    after_fork();
}

/* Set by a fork before it forks, so that a child's exec finds it set and
 * writes nothing (each page it writes is a copy of its parent's); by a
 * spawn; and by an exec, which in a vfork child writes the parent's own. */
RG_START_TEXT void rg_note_child(void)
{
    if (!atomic_load_explicit(&self.had_child, memory_order_relaxed))
        atomic_store_explicit(&self.had_child, true, memory_order_relaxed);
}

static void register_fork_handlers(void)
{
    pthread_atfork(before_fork, after_fork, after_fork_child);
    atomic_store_explicit(&self.fork_handlers_set, true, memory_order_release);
}

bool rg_fork_handlers_set(void)
{
    return atomic_load_explicit(&self.fork_handlers_set, memory_order_acquire);
}

void rg_fork_handlers(void) { pthread_once(&self.fork_handlers, register_fork_handlers); }

RG_START_TEXT struct rg_exec_env *rg_ctx_exec_env(void) { return &self.exec_env; }

RG_START_TEXT struct rg_exec_cache *rg_ctx_exec_cache(void) { return &self.exec_cache; }

RG_START_TEXT struct rg_ctx *rg_enter_ready(void)
{
    if (atomic_load_explicit(&self.state, memory_order_acquire) != READY || !rg_crit_enter())
        return NULL;
    return &self.ctx;
}

/* Before main() every process pays for what runs here, so joining a
 * session does nothing but copy what an exec must hand on (preload/
 * handoff.h), in one pass over the environment and without a libc call;
 * the table is attached and the fork handlers registered by the first hook
 * that needs them. A new session must exist before main() runs, though:
 * shells copy the environment into their own variables at start-up and
 * export those to their children, not environ, so a READGUARD_SESSION set
 * later would never reach them. */
#ifdef __GLIBC__
/* glibc calls constructors with main()'s arguments: the environment from
 * there, and the program's name from argv[0] without a lookup (see
 * os/libcvar.h). musl passes none. argv[argc] is NULL, so argv[0] is there
 * to read even when argc is 0. */
#define START_PARAMS int argc, char **argv, char **envp
#define START_ENVP \
    (rg_libc_note_argv0(argv ? argv[0] : NULL), rg_next_note_start(argc, argv, envp), envp)
#else
#define START_PARAMS void
#define START_ENVP environ
#endif
__attribute__((constructor)) static void rg_start(START_PARAMS)
{
    struct rg_env_vars v = rg_env_vars(START_ENVP);
    rg_exec_env_capture(&self.exec_env, &v);
    self.start_owner = v.owner;
    self.started = true;
    bool join = v.session && *v.session;
    if (join && !(v.trampoline && *v.trampoline))
        return; /* errno untouched: nothing above calls libc */
    int saved = errno;
    if (v.trampoline && *v.trampoline)
        rg_trampoline_map();
    if (!join && rg_enter())
        rg_leave();
    errno = saved;
}

bool rg_fd_needs_ctx(int fd, void *stream)
{
    if (rg_fd_idle(fd))
        return false;
    if (fd > 2 || atomic_load_explicit(&self.state, memory_order_acquire) == READY)
        return true;
    rg_std_restamp(rg_xenv_session(&self.exec_env), fd, stream);
    return false;
}

/* Does the creator leave processes of its session running (an agent's
 * shell that started a server with &, or a daemon that forked twice and
 * left its parent)? They keep the table, as a killed launcher's children
 * do, and the next session or sessions --prune removes it once they are
 * gone: removed now, what they start later would find no table and refuse
 * every write. Only a creator that ever had a child pays for the scan of
 * /proc, which looks only at processes younger than it; one whose child
 * came from a fork glibc makes inside itself (daemon(3)) before the fork
 * handlers were set is caught while that child lives. */
static bool leaves_members(const struct rg_ctx *c)
{
    siginfo_t si = {0};
    struct stat st;
    if (!atomic_load_explicit(&self.had_child, memory_order_relaxed) &&
        rg_syscall6(SYS_waitid, P_ALL, 0, (long)&si, WEXITED | WNOHANG | WNOWAIT, 0, 0) != 0)
        return false; /* ECHILD: none */
    return rg_sys_fstatat(AT_FDCWD, c->session_path, &st, 0) == 0 &&
           rg_session_has_members(c->session_path, st.st_dev, st.st_ino, true, &self.members_wait);
}

/* At exit: restamp what this process wrote, and remove the session if this
 * process created it (only the creator itself, not its forked children). A
 * process that never entered the shim is only attached now if it has
 * something to do: most (`true`, `test`) have nothing. */
__attribute__((destructor)) static void rg_exit(void)
{
    /* Raw system calls only, so far: errno is left as it is. */
    if (atomic_load_explicit(&self.state, memory_order_acquire) != READY && !owner_from_env()) {
        rg_std_restamp_at_exit(rg_xenv_session(&self.exec_env));
        return;
    }
    int saved = errno;
    struct rg_ctx *c = rg_ready();
    /* A process that did not create the session only restamps: lock-free,
     * as a close's restamp (the locked map enters for itself), so without
     * two signal-mask calls in nearly every process that set up. */
    if (c && !self.owner_pid && !rg_crit_inside()) {
        rg_restamp_at_exit(c);
        errno = saved;
        return;
    }
    c = rg_enter();
    if (!c)
        return;
    rg_restamp_at_exit(c);
    if (self.owner_pid && self.owner_pid == rg_sys_getpid() && c->session_path[0] &&
        !leaves_members(c)) {
        rg_jend_close(c);
        rg_sys_unlinkat(AT_FDCWD, c->session_path, 0);
    }
    rg_leave();
    errno = saved;
}
