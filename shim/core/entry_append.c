/* The append stamp (core/table.h): what an entry holds, where a record
 * would be, for a file --allow-append let the session append to unread and
 * whose old bytes the journal kept. No reader takes it for a record (gen
 * 0); the journal believes it, so the next appender keeps nothing while the
 * file is as the last one left it. */
#include <stdatomic.h>

#include "core/stamplock.h"
#include "core/table.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15u;
    return x ^ (x >> 29);
}

uint32_t rg_append_check(const struct rg_stamp *st, int64_t mark)
{
    uint64_t x = mix((uint64_t)st->mtime_ns);
    x = mix(x ^ (uint64_t)st->ctime_ns);
    x = mix(x ^ (uint64_t)st->size);
    x = mix(x ^ (uint64_t)mark);
    return (uint32_t)(x >> 32) | 1u; /* never 0, which a stamp without a hash has */
}

/* e's fields as an append stamp would hold them. */
static void append_fields(const struct rg_entry *e, struct rg_stamp *st, int64_t *mark)
{
    st->mtime_ns = atomic_load_explicit(&e->mtime_ns, memory_order_acquire);
    st->size = atomic_load_explicit(&e->size, memory_order_acquire);
    st->ctime_ns = atomic_load_explicit(&e->ctime_ns, memory_order_acquire);
    *mark = atomic_load_explicit(&e->read_ns, memory_order_acquire);
}

/* Do e's gen, fields and hash (from word) make an append stamp? */
static bool append_stamp(const struct rg_entry *e, uint64_t word, struct rg_stamp *st,
                         int64_t *mark)
{
    if (atomic_load_explicit(&e->gen, memory_order_acquire) != 0)
        return false;
    append_fields(e, st, mark);
    return *mark < 0 && rg_hash_of(word) == rg_append_check(st, *mark);
}

bool rg_entry_appended_as(const struct rg_entry *e, const struct rg_stamp *st)
{
    uint64_t before = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
    struct rg_stamp had;
    int64_t mark;
    if ((rg_stamps_of(before) & 1u) || !append_stamp(e, before, &had, &mark))
        return false;
    /* No stamp began meanwhile: the fields are the ones the check is of. */
    return atomic_load_explicit(&e->hash_stamps, memory_order_relaxed) == before &&
           had.mtime_ns == st->mtime_ns && had.ctime_ns == st->ctime_ns && had.size == st->size;
}

bool rg_entry_appended(const struct rg_entry *e)
{
    struct rg_stamp had;
    int64_t mark;
    return append_stamp(e, atomic_load_explicit(&e->hash_stamps, memory_order_acquire), &had,
                        &mark);
}

/* Takes e's stamp lock if no stamp is under way, without waiting: an
 * append stamp not made is only a copy more. *seen: the word before. */
static bool append_lock(struct rg_entry *e, uint64_t *seen, uint64_t *held)
{
    *seen = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
    uint32_t n = rg_stamps_of(*seen);
    *held = rg_hash_stamps(rg_hash_of(*seen), n + 1);
    return !(n & 1u) &&
           atomic_compare_exchange_strong_explicit(&e->hash_stamps, seen, *held,
                                                   memory_order_acq_rel, memory_order_relaxed);
}

/* Releases the lock with nothing stored: the word goes back to seen. */
static void append_unlock(struct rg_entry *e, uint64_t held, uint64_t seen)
{
    atomic_compare_exchange_strong_explicit(&e->hash_stamps, &held, seen, memory_order_release,
                                            memory_order_relaxed);
}

/* Stores the append stamp st of mark, and releases the lock with its check
 * as the hash (rg_stamp_end: a stamper that took the lock over meanwhile keeps
 * its own hash, which then fails the check). */
static void append_store(struct rg_entry *e, uint64_t held, const struct rg_stamp *st, int64_t mark)
{
    atomic_store_explicit(&e->mtime_ns, st->mtime_ns, memory_order_relaxed);
    atomic_store_explicit(&e->size, st->size, memory_order_relaxed);
    atomic_store_explicit(&e->ctime_ns, st->ctime_ns, memory_order_relaxed);
    atomic_store_explicit(&e->read_ns, mark, memory_order_relaxed);
    rg_stamp_end(e, held, rg_append_check(st, mark));
}

void rg_entry_append_begin(struct rg_entry *e, const struct rg_stamp *st, int32_t pid)
{
    /* First, and whatever follows: no record of the file may stay. */
    rg_entry_forget(e);
    uint64_t seen, held;
    if (!append_lock(e, &seen, &held))
        return;
    struct rg_stamp had;
    int64_t mark;
    /* A read recorded since the forget is left as it is; so is the newer
     * stamp of another appender's let-go, which this one's older look
     * would roll back. */
    if (atomic_load_explicit(&e->gen, memory_order_acquire) != 0 ||
        (append_stamp(e, seen, &had, &mark) && had.ctime_ns > st->ctime_ns)) {
        append_unlock(e, held, seen);
        return;
    }
    append_store(e, held, st, rg_append_mark(pid));
}

void rg_entry_append_end(struct rg_entry *e, const struct rg_stamp *st, int32_t pid)
{
    uint64_t seen, held;
    if (!append_lock(e, &seen, &held))
        return;
    struct rg_stamp had;
    int64_t mark;
    if (!append_stamp(e, seen, &had, &mark) || mark != rg_append_mark(pid) || st->size < had.size ||
        st->ctime_ns < had.ctime_ns ||
        (st->ctime_ns == had.ctime_ns && st->mtime_ns == had.mtime_ns && st->size == had.size)) {
        append_unlock(e, held, seen);
        return;
    }
    append_store(e, held, st, mark);
}
