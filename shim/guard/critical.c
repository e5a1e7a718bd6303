#include "guard/critical.h"
#include <stdint.h>

#include "os/sys.h"

__thread int rg_crit_inside_ __attribute__((tls_model("initial-exec")));
__thread sigset_t rg_crit_mask_ __attribute__((tls_model("initial-exec")));

_Static_assert(sizeof(uint64_t) == RG_KSIGSET_SIZE, "the kernel's signal set is one word");

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
    rg_crit_block_async(NULL);
    rg_crit_mask_ = p->mask;
    rg_crit_inside_ = 1;
}
