/* The take and release of an entry's stamp lock, shared by the full stamp
 * (entry.c) and the append stamp (entry_append.c), inline: the close of
 * every allowed write that changed the file takes and ends a stamp.
 * Internal to core/. */
#ifndef RG_STAMPLOCK_H
#define RG_STAMPLOCK_H

#include "core/table.h"

/* A stamper waits for another to finish before taking the entry over:
 * bounded, because one killed mid-stamp never finishes, and long, because
 * one taken over while only preempted goes on to store its fields late,
 * over the newer stamp, and the session then refuses its own next write as
 * changed. A count of yields was no bound in time: 1024 of them passed in a
 * millisecond or two while the holder, preempted on a loaded machine, got
 * the CPU back 7-20 ms later (t0500, 1 run in 30 under load). So the wait
 * yields a while, then naps, until a second at least has passed: a stamper
 * that meets a killed one waits that long, once. */
#define RG_STAMP_SPINS 1024

struct rg_stamp_wait {
    int spins;
    long naps;
};

/* One more moment for a stamp under way. False once the time is up. Only
 * a stamper that meets another gets here. */
bool rg_stamp_wait_more(struct rg_stamp_wait *w);

/* rg_stamp_begin past its first try (cur: the word that try loaded). */
uint64_t rg_stamp_begin_wait(struct rg_entry *e, uint64_t cur, uint64_t seen, bool *raced);

/* Takes the entry's stamp lock (stamps odd while held), keeping its hash.
 * Says whether another stamp landed since the caller loaded `seen`, or one
 * is taken over. A count that differs from seen's in the low bit only (the
 * lock taken, or released, since) does not tell: the lock held alone, by
 * renew() or a reread's take-over, goes back to the count it had and
 * stores no stamp, and taken for a race it would turn a scan that met it
 * into a look (entry.c's stamp()). Returns the word as held, for
 * rg_stamp_end. Inline for a lock found free and taken at the first
 * exchange, as nearly every stamp finds it: out of line, the wait's loop
 * saved and restored its registers for that too (rg_stamp_begin_wait:
 * the same turns, from the word loaded here). */
static inline __attribute__((always_inline)) uint64_t rg_stamp_begin(struct rg_entry *e,
                                                                     uint64_t seen, bool *raced)
{
    uint64_t cur = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
    uint32_t n = rg_stamps_of(cur);
    if (__builtin_expect(!(n & 1u), 1)) {
        if (n != rg_stamps_of(seen) && (n ^ rg_stamps_of(seen)) != 1u)
            *raced = true;
        uint64_t mine = rg_hash_stamps(rg_hash_of(cur), n + 1);
        if (atomic_compare_exchange_weak_explicit(&e->hash_stamps, &cur, mine, memory_order_acq_rel,
                                                  memory_order_acquire))
            return mine;
    }
    return rg_stamp_begin_wait(e, cur, seen, raced);
}

/* Puts hash with the release. Fails harmlessly when another took the entry
 * over after its wait: the lock is then theirs to end, and this hash,
 * of bytes their stamp may not describe, stays out. */
static inline void rg_stamp_end(struct rg_entry *e, uint64_t mine, uint32_t hash)
{
    atomic_compare_exchange_strong_explicit(&e->hash_stamps, &mine,
                                            rg_hash_stamps(hash, rg_stamps_of(mine) + 1),
                                            memory_order_release, memory_order_relaxed);
}

#endif
