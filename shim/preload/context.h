/* The shim's per-process state: one instance, set up on the first hooked
 * call (or before main() when the process starts a session), kept across
 * fork, and left at exit. Every hook reaches the guard's context
 * (guard/ctx.h) through here. */
#ifndef RG_CONTEXT_H
#define RG_CONTEXT_H

#include <stdbool.h>

#include "guard/critical.h"
#include "guard/ctx.h"
/* Inline, as every close and every read of every program asks one of
 * them: the one instance's state and context, for these two alone. */
#define RG_PRELOAD_READY 2
struct rg_preload_view {
    _Atomic int *state;
    struct rg_ctx *ctx;
};
extern const struct rg_preload_view rg_preload_view_ __attribute__((visibility("hidden")));

/* rg_enter's slow half, inside the critical section already: sets the
 * context up (once per process) and returns it. */
struct rg_ctx *rg_enter_first(void);

/* Enters the shim from a hook: the ready context, or NULL when the call must
 * pass straight through (a hook re-entered from inside the shim, for example
 * from a signal handler or from dlsym). Pair with rg_leave(). Inline: every
 * write enters twice, for its open and for its close. */
static inline struct rg_ctx *rg_enter(void)
{
    if (!rg_crit_enter())
        return NULL;
    if (atomic_load_explicit(rg_preload_view_.state, memory_order_acquire) == RG_PRELOAD_READY)
        return rg_preload_view_.ctx;
    return rg_enter_first(); /* the process's first: sets the context up */
}

static inline void rg_leave(void) { rg_crit_leave(); }

/* Can a descriptor-only hook (close, dup2) skip the shim for fd? Only if
 * nothing is tracked on it and it is not 0-2, whose inherited writes a close
 * restamps. Reads one slot; needs no rg_enter(), so it works before the
 * context exists (nothing is tracked then) and attaches nothing. */
static inline bool rg_fd_idle(int fd)
{
    /* 3 to RG_FDMAP_SIZE - 1, nearly every close, in one unsigned test. */
    if ((unsigned)fd - 3 < RG_FDMAP_SIZE - 3)
        return atomic_load_explicit(&rg_preload_view_.ctx->fds[fd].ino, memory_order_relaxed) == 0;
    return fd < 0;
}

/* For a hook about to close fd or put another over it (close, dup2,
 * fclose): does the shim's work on it need the context? Not when fd is
 * idle, nor for 0-2 of a process that has not set its context up: nothing
 * of its own is there, and an inherited regular file written there is
 * restamped here (stream, the FILE on it if any, flushed first) on a table
 * attached for it alone, without setting the process up. Shells and tools
 * close their standard descriptors all the time; most are pipes. */
bool rg_fd_needs_ctx(int fd, void *stream);

/* Enters the shim only if this process has already set itself up, never
 * starting a session or attaching a table: the path of an exec, which may
 * run in a vfork child that shares the parent's memory. */
struct rg_ctx *rg_enter_ready(void);

/* The context if this process has set itself up, without entering the
 * critical section (guard/critical.h): only for work that is reentrant as it
 * stands, with no lock and no malloc, so a signal handler may run in the
 * middle of it and a fork may copy it half done. Recording a read is such
 * work (the table is lock-free), and it is the hottest path of all, so it
 * pays no signal-mask calls. */
static inline struct rg_ctx *rg_ready(void)
{
    return atomic_load_explicit(rg_preload_view_.state, memory_order_acquire) == RG_PRELOAD_READY
               ? rg_preload_view_.ctx
               : NULL;
}

/* Registers the fork handlers, once per process: they take the context's
 * locks around a fork so that a child never inherits one held, and share
 * the exec-target cache with the children. Called before the context is
 * first set up, and by the fork hook; idempotent and thread-safe, but not
 * async-signal-safe: call it inside the critical section. */
void rg_fork_handlers(void);
/* Are they registered? Async-signal-safe: a fork need not enter the
 * critical section to learn that it has nothing to do. */
bool rg_fork_handlers_set(void);

/* Notes that a child of this process may outlive it in the session: a
 * creator's exit then looks for members before it removes the table. */
void rg_note_child(void);

struct rg_exec_env;
/* What this process hands on to the images it execs (preload/handoff.h). */
struct rg_exec_env *rg_ctx_exec_env(void);
struct rg_exec_cache;
/* And what it has learnt of the programs they run (os/exec_target.h). */
struct rg_exec_cache *rg_ctx_exec_cache(void);

#endif
