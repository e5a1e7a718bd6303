/* What tests/bench/rgfloor.c lends the rest of the floor library. */
#ifndef RG_BENCH_RGFLOOR_H
#define RG_BENCH_RGFLOOR_H

#include <signal.h>
#include <stddef.h>

/* The signal mask pair of a write hook's critical section
 * (shim/guard/critical.c): all but the synchronous signals blocked. */
void rg_floor_block(sigset_t *old);
void rg_floor_restore(const sigset_t *old);

/* RG_FLOOR_JMAP=1 (tests/bench/rgfloor_jmap.c): one record of n bytes, its
 * newline last, stored in the shared mapping of the index at path. */
void rg_floor_jmap_append(const char *path, const char *line, size_t n);

#endif
