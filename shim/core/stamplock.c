/* The take of an entry's stamp lock past its first try: the wait for
 * another stamper, bounded, and the turns after it (core/stamplock.h). */
#include "core/stamplock.h"
#include <errno.h>
#include <sched.h>
#include <time.h>

#define STAMP_NAP_NS 50000L
/* Naps counted, not a clock read: clock_gettime would cost the library a
 * symbol version (t0020.07), and a nap lasts at least what it asks. */
#define STAMP_NAPS (1000000000L / STAMP_NAP_NS)

bool rg_stamp_wait_more(struct rg_stamp_wait *w)
{
    if (w->spins < RG_STAMP_SPINS) {
        w->spins++;
        sched_yield();
        return true;
    }
    if (w->naps == STAMP_NAPS)
        return false;
    w->naps++;
    int saved = errno; /* EINTR: a read's record keeps none (guard/calls.c) */
    nanosleep(&(struct timespec){0, STAMP_NAP_NS}, NULL);
    errno = saved;
    return true;
}

/* rg_stamp_begin's every turn but a first that finds the lock free and
 * takes it: out of line, with the frame the wait needs. cur: the word as
 * the first turn loaded it, or as its failed exchange left it. */
uint64_t rg_stamp_begin_wait(struct rg_entry *e, uint64_t cur, uint64_t seen, bool *raced)
{
    for (struct rg_stamp_wait w = {0, 0};;) {
        uint32_t n = rg_stamps_of(cur);
        bool held = n & 1u, waiting = held && rg_stamp_wait_more(&w);
        if (n != rg_stamps_of(seen) && ((n ^ rg_stamps_of(seen)) != 1u || (held && !waiting)))
            *raced = true;
        if (waiting) {
            cur = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
            continue;
        }
        uint64_t mine = rg_hash_stamps(rg_hash_of(cur), held ? n + 2 : n + 1);
        if (atomic_compare_exchange_weak_explicit(&e->hash_stamps, &cur, mine, memory_order_acq_rel,
                                                  memory_order_acquire))
            return mine;
    }
}
