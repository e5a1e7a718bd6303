#include "guard/critical.h"
#include <stdint.h>

#include "os/sys.h"

__thread int rg_crit_inside_ __attribute__((tls_model("initial-exec")));
__thread sigset_t rg_crit_mask_ __attribute__((tls_model("initial-exec")));

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

const sigset_t *const rg_crit_async = &async_set.set;

void rg_crit_pause_inside(struct rg_crit_pause *p)
{
    /* A handler that runs now enters and leaves on its own, and overwrites
     * rg_crit_mask_: keep ours here. */
    p->mask = rg_crit_mask_;
    rg_crit_inside_ = 0;
    rg_sys_sigmask(SIG_SETMASK, &p->mask, NULL);
}

void rg_crit_resume_inside(struct rg_crit_pause *p)
{
    rg_sys_sigmask(SIG_BLOCK, rg_crit_async, NULL);
    rg_crit_mask_ = p->mask;
    rg_crit_inside_ = 1;
}
