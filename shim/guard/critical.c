#include "guard/critical.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

/* initial-exec: the flag must not make glibc allocate TLS lazily, which could
 * call malloc from inside a hook. */
static __thread int inside __attribute__((tls_model("initial-exec")));
static __thread sigset_t program_mask __attribute__((tls_model("initial-exec")));

/* Every signal but the synchronous ones: a fault inside the shim must reach
 * the program (or kill it) at once, not wait. glibc keeps its own internal
 * signals (cancellation, setxid) unblocked whatever the set says. */
static void async_signals(sigset_t *set)
{
    sigfillset(set);
    sigdelset(set, SIGSEGV);
    sigdelset(set, SIGBUS);
    sigdelset(set, SIGFPE);
    sigdelset(set, SIGILL);
    sigdelset(set, SIGTRAP);
    sigdelset(set, SIGSYS);
}

/* The set, built once per process by whichever thread gets there first:
 * building it (sigfillset and six sigdelset calls) cost more instructions
 * than the pthread_sigmask call each hook makes with it. Until it is ready,
 * a thread builds its own copy; the set never changes. */
static sigset_t async_set;
static _Atomic int async_set_state; /* 0 none, 1 being built, 2 ready */

static const sigset_t *async_signals_once(sigset_t *scratch)
{
    int st = atomic_load_explicit(&async_set_state, memory_order_acquire);
    if (st == 2)
        return &async_set;
    if (st == 0 && atomic_compare_exchange_strong(&async_set_state, &st, 1)) {
        async_signals(&async_set);
        atomic_store_explicit(&async_set_state, 2, memory_order_release);
        return &async_set;
    }
    async_signals(scratch);
    return scratch;
}

/* Blocks; the mask it replaced goes to *old. pthread_sigmask leaves errno
 * alone on success, and cannot fail with these arguments. */
static void block(sigset_t *old)
{
    sigset_t scratch;
    pthread_sigmask(SIG_BLOCK, async_signals_once(&scratch), old);
}

bool rg_crit_enter(void)
{
    if (inside)
        return false;
    /* Blocked first, then inside: a signal in between finds the thread
     * outside, and its handler's hooks are guarded. */
    block(&program_mask);
    inside = 1;
    return true;
}

void rg_crit_leave(void)
{
    /* Outside first, then unblocked: a pending handler runs outside. */
    inside = 0;
    pthread_sigmask(SIG_SETMASK, &program_mask, NULL);
}

bool rg_crit_inside(void) { return inside; }

void rg_crit_pause(struct rg_crit_pause *p)
{
    p->active = inside;
    if (!p->active)
        return;
    /* A handler that runs now enters and leaves on its own, and overwrites
     * program_mask: keep ours here. */
    p->mask = program_mask;
    inside = 0;
    pthread_sigmask(SIG_SETMASK, &p->mask, NULL);
}

void rg_crit_resume(struct rg_crit_pause *p)
{
    if (!p->active)
        return;
    int saved = errno;
    block(NULL);
    program_mask = p->mask;
    inside = 1;
    errno = saved;
}
