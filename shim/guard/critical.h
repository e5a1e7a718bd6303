/* The shim's critical section: where a thread works on the shim's own state.
 *
 * A signal handler may call open() at any instruction (open is
 * async-signal-safe), and the shim's state is not reentrant everywhere (lazy
 * start-up, the large-descriptor map, malloc in a slow path). So while a
 * thread is inside, asynchronous signals wait (they are blocked; faults are
 * not), and a handler only ever runs with the thread outside, where its hook
 * is guarded like any other call. A hook entered while its thread is already
 * inside is the shim calling itself (dlsym -> malloc -> open under an
 * allocator that opens files) and passes straight through.
 *
 * A call that can block for as long as another process likes (an open of a
 * FIFO or a tty, a flush into a pipe) runs paused: the thread is outside, with
 * the program's own signal mask, so EINTR and Ctrl-C work as without the shim.
 *
 * The supervisor links this too; its threads never enter, so pausing there
 * does nothing. */
#ifndef RG_CRITICAL_H
#define RG_CRITICAL_H

#include <signal.h>
#include <stdbool.h>

#include "os/sys.h"

/* The thread's state, read and written inline by every hook (a call per
 * test was a tenth of a write's own instructions). initial-exec: the
 * variables must not make glibc allocate TLS lazily, which could call
 * malloc from inside a hook. Touched only through the functions below. */
extern __thread int rg_crit_inside_ __attribute__((tls_model("initial-exec")));
extern __thread sigset_t rg_crit_mask_ __attribute__((tls_model("initial-exec")));
/* What a thread inside blocks (critical.c says which and why). */
extern const sigset_t *const rg_crit_async;

/* Enters; false if the thread is already inside. */
static inline bool rg_crit_enter(void)
{
    if (rg_crit_inside_)
        return false;
    /* Blocked first, then inside: a signal in between finds the thread
     * outside, and its handler's hooks are guarded. The raw call cannot
     * fail with these arguments, and leaves errno alone. */
    rg_sys_sigmask(SIG_BLOCK, rg_crit_async, &rg_crit_mask_);
    rg_crit_inside_ = 1;
    return true;
}

static inline void rg_crit_leave(void)
{
    /* Outside first, then unblocked: a pending handler runs outside. */
    rg_crit_inside_ = 0;
    rg_sys_sigmask(SIG_SETMASK, &rg_crit_mask_, NULL);
}

/* Is the thread inside? */
static inline bool rg_crit_inside(void) { return rg_crit_inside_; }

struct rg_crit_pause {
    bool active;
    sigset_t mask;
};
void rg_crit_pause_inside(struct rg_crit_pause *p);
void rg_crit_resume_inside(struct rg_crit_pause *p);

/* A thread outside (a write's open, made before the hook enters) has
 * nothing to pause: only one inside goes out of line. */
static inline void rg_crit_pause(struct rg_crit_pause *p)
{
    p->active = rg_crit_inside_;
    if (p->active)
        rg_crit_pause_inside(p);
}

static inline void rg_crit_resume(struct rg_crit_pause *p)
{
    if (p->active)
        rg_crit_resume_inside(p);
}

/* Runs EXPR outside the critical section, with the program's signal mask. */
#define RG_PAUSED(expr)               \
    ({                                \
        struct rg_crit_pause p_;      \
        rg_crit_pause(&p_);           \
        __typeof__(expr) r_ = (expr); \
        rg_crit_resume(&p_);          \
        r_;                           \
    })

#endif
