/* What tests/bench/rgfloor.c lends the rest of the floor library. */
#ifndef RG_BENCH_RGFLOOR_H
#define RG_BENCH_RGFLOOR_H

#include <signal.h>

/* The signal mask pair of a write hook's critical section
 * (shim/guard/critical.c): all but the synchronous signals blocked. */
void rg_floor_block(sigset_t *old);
void rg_floor_restore(const sigset_t *old);

#endif
