#include "guard/critical.h"
#include <stdint.h>

#include "os/sys.h"

/* initial-exec: the flag must not make glibc allocate TLS lazily, which could
 * call malloc from inside a hook. */
static __thread int inside __attribute__((tls_model("initial-exec")));
static __thread sigset_t program_mask __attribute__((tls_model("initial-exec")));

/* Every signal but the synchronous ones: a fault inside the shim must reach
 * the program (or kill it) at once, not wait. Nor libc's internal signals,
 * which its own sigfillset leaves out (glibc's cancellation and setxid, 32
 * and 33; musl's 32 to 34): a thread blocked on them would hang setuid() in
 * another. A constant in the kernel's layout, set with the raw system call:
 * building the set and pthread_sigmask were three libc functions for ld.so
 * to bind in every process that enters the shim, the first time at exit. */
#define SIG_BIT(s) (1ULL << ((s)-1))
#ifdef __GLIBC__
#define LIBC_INTERNAL (SIG_BIT(32) | SIG_BIT(33))
#else
#define LIBC_INTERNAL (SIG_BIT(32) | SIG_BIT(33) | SIG_BIT(34))
#endif
static const union {
    uint64_t bits;
    sigset_t set;
} async_set = {.bits = ~(SIG_BIT(SIGSEGV) | SIG_BIT(SIGBUS) | SIG_BIT(SIGFPE) | SIG_BIT(SIGILL) |
                         SIG_BIT(SIGTRAP) | SIG_BIT(SIGSYS) | LIBC_INTERNAL)};
_Static_assert(sizeof(uint64_t) == RG_KSIGSET_SIZE, "the kernel's signal set is one word");

/* Blocks; the mask it replaced goes to *old. Cannot fail with these
 * arguments, and a raw call leaves errno alone. */
static void block(sigset_t *old) { rg_sys_sigmask(SIG_BLOCK, &async_set.set, old); }

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
    rg_sys_sigmask(SIG_SETMASK, &program_mask, NULL);
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
    rg_sys_sigmask(SIG_SETMASK, &p->mask, NULL);
}

void rg_crit_resume(struct rg_crit_pause *p)
{
    if (!p->active)
        return;
    block(NULL);
    program_mask = p->mask;
    inside = 1;
}
