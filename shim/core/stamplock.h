/* The release of an entry's stamp lock, shared by the full stamp
 * (entry.c) and the append stamp (entry_append.c), inline in both: the
 * close of every allowed write ends a stamp. Internal to core/. */
#ifndef RG_STAMPLOCK_H
#define RG_STAMPLOCK_H

#include "core/table.h"

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
