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
#include <stdint.h>

#include "os/sys.h"

/* The thread's state, read and written inline by every hook (a call per
 * test was a tenth of a write's own instructions). initial-exec: the
 * variables must not make glibc allocate TLS lazily, which could call
 * malloc from inside a hook. Touched only through the functions below. */
extern __thread int rg_crit_inside_ __attribute__((tls_model("initial-exec")));
extern __thread sigset_t rg_crit_mask_ __attribute__((tls_model("initial-exec")));
/* What a thread inside blocks: every signal but the synchronous ones, as
 * a fault inside the shim must reach the program (or kill it) at once, not
 * wait. Nor libc's internal signals, which its own sigfillset leaves out
 * (glibc's cancellation and setxid, 32 and 33; musl's 32 to 34): a thread
 * blocked on them would hang setuid() in another. A constant in the
 * kernel's layout, set with the raw system call: building the set and
 * pthread_sigmask were three libc functions for ld.so to bind in every
 * process that enters the shim, the first time at exit. */
#define RG_SIG_BIT(s) (1ULL << ((s)-1))
#ifdef __GLIBC__
#define RG_LIBC_INTERNAL_SIGS (RG_SIG_BIT(32) | RG_SIG_BIT(33))
#else
#define RG_LIBC_INTERNAL_SIGS (RG_SIG_BIT(32) | RG_SIG_BIT(33) | RG_SIG_BIT(34))
#endif
#define RG_CRIT_ASYNC                                                                       \
    (~(RG_SIG_BIT(SIGSEGV) | RG_SIG_BIT(SIGBUS) | RG_SIG_BIT(SIGFPE) | RG_SIG_BIT(SIGILL) | \
       RG_SIG_BIT(SIGTRAP) | RG_SIG_BIT(SIGSYS) | RG_LIBC_INTERNAL_SIGS))

/* Blocks them, the old mask into old (or NULL). The set is a word on the
 * stack, not a constant in .rodata, which the kernel would read from a page
 * that a shell's forked child has not mapped yet: a page fault in every
 * child that execs through the hook. The raw call cannot fail with these
 * arguments, and leaves errno alone. */
static inline void rg_crit_block_async(sigset_t *old)
{
    const uint64_t set = RG_CRIT_ASYNC;
    rg_sys_sigmask_word(SIG_BLOCK, &set, old);
}

/* Enters; false if the thread is already inside. */
static inline bool rg_crit_enter(void)
{
    if (rg_crit_inside_)
        return false;
    /* Blocked first, then inside: a signal in between finds the thread
     * outside, and its handler's hooks are guarded. */
    rg_crit_block_async(&rg_crit_mask_);
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
