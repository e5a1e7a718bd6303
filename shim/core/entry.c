/* One entry of the session table: its stamp, and who is writing it. A stamp
 * is published by storing gen last (release). Full stamps of one entry are
 * serialised (rg_stamp_begin): unserialised, two writers of the session closing
 * at once could leave the older stamp, or a mix of both, after the newer
 * file state, and the session would then refuse its own next write. A reader
 * may still see a stamp half written; each field came from a real fstat of
 * the same inode, so that can only fail to match the file (a refusal the
 * caller's second look clears), never a wrong allow. */
#include "core/stamplock.h"
#include "core/table.h"

/* Renews what a re-read learnt of the bytes of the stamp the caller found
 * (state seen): their hash, and when. Skipped if a full stamp is under way
 * or landed since: the hash would vouch for bytes the entry no longer
 * describes, and the session's next write would be "changed". Held like a
 * stamp but released to seen's count, as the stamp stays. */
static void renew(struct rg_entry *e, uint64_t seen, uint32_t hash, int64_t now_ns)
{
    uint32_t n = rg_stamps_of(seen);
    uint64_t held = rg_hash_stamps(hash ? hash : rg_hash_of(seen), n + 1);
    /* The hash goes in with the lock, by the one compare-and-swap that sees
     * no stamp came since: a stamper that takes the entry over from this
     * one, preempted here, puts its own hash, so this one cannot outlive
     * it. Only read_ns may still land late, and it is older: a read that
     * expires or looks racy sooner, never a wrong allow. */
    if ((n & 1u) || !atomic_compare_exchange_strong_explicit(
                        &e->hash_stamps, &seen, held, memory_order_acq_rel, memory_order_relaxed))
        return;
    atomic_store_explicit(&e->read_ns, now_ns, memory_order_relaxed);
    atomic_compare_exchange_strong_explicit(&e->hash_stamps, &held,
                                            rg_hash_stamps(rg_hash_of(held), n),
                                            memory_order_release, memory_order_relaxed);
}

/* Does a stamp that raced with another lose to what e now holds? An older
 * one does; so does one the other already stored, whose own-write mark and
 * reader a full stamp would wipe (the next torn read would then stand);
 * and so does a read that ties with a write's stamp within a tick: it may
 * have looked in the middle of that write (new times, old size), and
 * stored after the writer's restamp it would stand. */
static bool stamp_loses(const struct rg_table *t, const struct rg_entry *e,
                        const struct rg_stamp *st, bool own_write, int64_t now_ns)
{
    uint32_t gen = atomic_load_explicit(&t->hdr->generation, memory_order_relaxed);
    uint32_t cur = atomic_load_explicit(&e->gen, memory_order_acquire);
    if ((cur & RG_GEN_MASK) != gen)
        return false;
    int64_t ctime = atomic_load_explicit(&e->ctime_ns, memory_order_relaxed);
    if (st->ctime_ns != ctime)
        return st->ctime_ns < ctime;
    bool same = atomic_load_explicit(&e->mtime_ns, memory_order_relaxed) == st->mtime_ns &&
                atomic_load_explicit(&e->size, memory_order_relaxed) == st->size;
    return same || (!own_write && (cur & RG_GEN_WRITE) && now_ns - ctime < RG_TICK_NS);
}

static void hand_over(struct rg_entry *e, uint32_t reader)
{
    uint32_t cur = atomic_load_explicit(&e->reader, memory_order_relaxed), next;
    while ((next = rg_reader_after(cur, reader)) != cur &&
           !atomic_compare_exchange_weak_explicit(&e->reader, &cur, next, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

/* rg_entry_take_over, inline in the loop below: every re-read that moves
 * the reader word (a scan's file read again by a new process: each grep -r
 * over files a run before it read) makes it, and the call's frame was
 * about a sixth of it. */
static inline __attribute__((always_inline)) bool take_over(struct rg_entry *e, uint64_t seen,
                                                            uint32_t reader, uint32_t mark)
{
    uint32_t n = rg_stamps_of(seen);
    uint64_t held = rg_hash_stamps(rg_hash_of(seen), n + 1);
    /* Held as renew() holds it, and released to seen: the compare-and-swap
     * from seen fails if any stamp began since, even one that left the
     * reader word as it was (the same scanner recording N+2), which a swap
     * on the reader word alone cannot tell; and no stamp can store its
     * fields between this check and the hand-over. */
    if ((n & 1u) || !atomic_compare_exchange_strong_explicit(
                        &e->hash_stamps, &seen, held, memory_order_acq_rel, memory_order_relaxed))
        return false;
    hand_over(e, reader);
    if (mark)
        atomic_fetch_or_explicit(&e->gen, mark, memory_order_release);
    /* The session's own write drops a read's hash of this stamp: that read
     * may have looked in the middle of the write, and its hash of other
     * bytes would then vouch against the session's own (t0500, traced). A
     * full stamp of a write carries no hash either. */
    uint64_t done = mark & RG_GEN_WRITE ? rg_hash_stamps(0, n) : seen;
    atomic_compare_exchange_strong_explicit(&e->hash_stamps, &held, done, memory_order_release,
                                            memory_order_relaxed);
    return true;
}

/* Hands e over to st's reader, and ors mark into its gen, if e records st,
 * checked and done in one step (rg_entry_take_over). Gives up after a
 * bounded wait for a stamp under way, leaving e as it is: a refusal, never
 * a wrong allow. Not inlined: the rare path, kept out of stamp()'s. */
static __attribute__((noinline)) void take_over_if_recorded(const struct rg_table *t,
                                                            struct rg_entry *e,
                                                            const struct rg_stamp *st,
                                                            uint32_t mark)
{
    struct rg_stamp_wait w = {0, 0};
    for (int lost = 0; lost < RG_STAMP_SPINS;) {
        uint64_t seen = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
        if (rg_stamps_of(seen) & 1u) {
            if (!rg_stamp_wait_more(&w))
                return;
        } else if (!rg_entry_records(t, e, st) || take_over(e, seen, st->reader, mark)) {
            return;
        } else {
            lost++;
        }
    }
}

/* The session's own write found the bytes e records: they stay, or become,
 * its own (its reader's, marked written). Most restamps find both so
 * already: no lock, no locked instruction. A change is checked and made in
 * one step under the stamp lock, as a re-read's hand-over: made after the
 * check without it, a scanner's stamp of newer bytes landing in between
 * would get the session's mark and its reader, and the session could
 * write bytes only the scanner read. */
static inline __attribute__((always_inline)) void own_keep(const struct rg_table *t,
                                                           struct rg_entry *e, uint32_t cur,
                                                           uint32_t had, const struct rg_stamp *st)
{
    if (!rg_entry_own_already(cur, had, st->reader))
        take_over_if_recorded(t, e, st, RG_GEN_WRITE);
}

/* The time a stamp is taken at: given, or read from clock where the stamp
 * needs it, at most once. */
struct stamp_time {
    int64_t ns;
    int64_t (*clock)(void);
};

static int64_t time_of(struct stamp_time *at)
{
    if (at->clock) {
        at->ns = at->clock();
        at->clock = NULL;
    }
    return at->ns;
}

/* e holds a stamp of this generation, cur: is st news to it? Not when it
 * is older, nor a re-read of the bytes e records (which renews e's read at
 * most), nor a read of the same ctime as the session's write stamped, within
 * a tick of it: it may have looked in the middle of that write (new times,
 * old size). When it is, *reader and *own are what the new stamp keeps. */
static inline __attribute__((always_inline)) bool
news_to(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st, bool own_write,
        struct stamp_time *at, uint32_t cur, uint64_t seen, uint32_t *reader, bool *own)
{
    int64_t ctime = atomic_load_explicit(&e->ctime_ns, memory_order_relaxed);
    if (st->ctime_ns < ctime)
        return false;
    bool same = atomic_load_explicit(&e->mtime_ns, memory_order_relaxed) == st->mtime_ns &&
                atomic_load_explicit(&e->size, memory_order_relaxed) == st->size;
    /* Only the inode moved (a rename, a chmod): its bytes are still the
     * ones looked at or written, which a scan does not take over. */
    uint32_t had = atomic_load_explicit(&e->reader, memory_order_relaxed);
    if (same && (*reader & RG_READER_SCAN) && !(had & RG_READER_SCAN))
        *reader = had;
    /* Nor does a read make the session's own bytes another's while an
     * own write or act is counted: that act (a rename, whose restamp
     * is still to come) is what moved ctime, and the journal, asked in
     * between whether the bytes are the session's own, would keep
     * them, and link the replaced file on for a sibling to write. */
    if (same && (cur & RG_GEN_WRITE) && rg_entry_writers(e))
        *own = true;
    if (st->ctime_ns != ctime)
        return true;
    /* Re-reading an unchanged file is the common case: leave its line
     * clean, unless reads expire; then renew it, at most once a tick.
     * When the session wrote these bytes, a scan that saw them
     * between the write and this restamp does not make them its
     * own, and a read that recorded them first leaves them the
     * session's own (the journal need not keep them). */
    if (same) {
        if (own_write)
            own_keep(t, e, cur, had, st);
        /* A read that hashed describes the bytes the session has as of
         * now: a record that was racy is calm from here on. */
        if (st->hash ||
            (t->hdr->read_ttl_ns > 0 &&
             time_of(at) - atomic_load_explicit(&e->read_ns, memory_order_relaxed) > RG_TICK_NS))
            renew(e, seen, st->hash, time_of(at));
        return false;
    }
    return own_write || !(cur & RG_GEN_WRITE) || time_of(at) - ctime >= RG_TICK_NS;
}

/* Inline in both: a frame of its own cost each restamp and first read a
 * call. */
static inline __attribute__((always_inline)) bool stamp(const struct rg_table *t,
                                                        struct rg_entry *e,
                                                        const struct rg_stamp *st, bool own_write,
                                                        struct stamp_time *at)
{
    uint32_t gen = atomic_load_explicit(&t->hdr->generation, memory_order_relaxed);
    uint64_t seen = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
    uint32_t cur = atomic_load_explicit(&e->gen, memory_order_acquire);
    uint32_t reader = st->reader;
    bool own = own_write;
    if ((cur & RG_GEN_MASK) == gen && !news_to(t, e, st, own_write, at, cur, seen, &reader, &own))
        return false;
    /* Another stamp landed since we looked (a session write restamping
     * what this read saw before it, typically): a scan must not take the
     * entry over from it unseen, so this read then counts as a look. */
    int64_t now_ns = time_of(at);
    bool raced = false;
    uint64_t mine = rg_stamp_begin(e, seen, &raced);
    if (raced) {
        reader &= ~RG_READER_SCAN;
        if (stamp_loses(t, e, st, own_write, now_ns)) {
            rg_stamp_end(e, mine, rg_hash_of(mine));
            return false;
        }
    }
    atomic_store_explicit(&e->mtime_ns, st->mtime_ns, memory_order_relaxed);
    atomic_store_explicit(&e->size, st->size, memory_order_relaxed);
    atomic_store_explicit(&e->ctime_ns, st->ctime_ns, memory_order_relaxed);
    atomic_store_explicit(&e->read_ns, now_ns, memory_order_relaxed);
    atomic_store_explicit(&e->reader, reader, memory_order_relaxed);
    atomic_store_explicit(&e->gen, gen | (own ? RG_GEN_WRITE : 0), memory_order_release);
    rg_stamp_end(e, mine, st->hash);
    return true;
}

bool rg_entry_stamp(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st,
                    bool own_write, int64_t now_ns)
{
    struct stamp_time at = {now_ns, NULL};
    return stamp(t, e, st, own_write, &at);
}

bool rg_entry_stamp_clock(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st,
                          bool own_write, int64_t (*clock)(void))
{
    struct stamp_time at = {0, clock};
    return stamp(t, e, st, own_write, &at);
}

bool rg_entry_holds(const struct rg_table *t, const struct rg_entry *e, const struct rg_stamp *st)
{
    return !(atomic_load_explicit(&e->reader, memory_order_relaxed) & RG_READER_SCAN) &&
           rg_entry_unchanged(t, e, st);
}

void rg_entry_mark_kept(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st)
{
    /* Checked and marked in one step under the stamp lock, as a take-over
     * is: marked after the check without it, a stamp of newer bytes (a
     * sibling's read of another program's write) landing in between would
     * get the mark, and the journal would not keep them. Held as renew()
     * holds it and released to seen: the compare-and-swap from seen fails
     * if any stamp began since the check's look. After a bounded wait for
     * a stamp under way, nothing is marked: the bytes are kept again,
     * never lost. */
    struct rg_stamp_wait w = {0, 0};
    for (int lost = 0; lost < RG_STAMP_SPINS;) {
        uint64_t seen = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
        uint32_t n = rg_stamps_of(seen);
        uint64_t held = rg_hash_stamps(rg_hash_of(seen), n + 1);
        if (n & 1u) {
            if (!rg_stamp_wait_more(&w))
                return;
            continue;
        }
        if (!rg_entry_holds(t, e, st))
            return;
        if (!atomic_compare_exchange_strong_explicit(&e->hash_stamps, &seen, held,
                                                     memory_order_acq_rel, memory_order_relaxed)) {
            lost++;
            continue;
        }
        atomic_fetch_or_explicit(&e->gen, RG_GEN_WRITE, memory_order_release);
        atomic_compare_exchange_strong_explicit(&e->hash_stamps, &held, seen, memory_order_release,
                                                memory_order_relaxed);
        return;
    }
}

void rg_entry_forget(struct rg_entry *e)
{
    atomic_store_explicit(&e->gen, 0, memory_order_release);
}

bool rg_entry_take_over(struct rg_entry *e, uint64_t seen, uint32_t reader, uint32_t mark)
{
    return take_over(e, seen, reader, mark);
}

void rg_entry_reread(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st)
{
    /* A read that fstat'ed version N, lost the CPU, and came back after a
     * scanner recorded N+1 is dropped as older; handing it the scanner's
     * record too would let the whole session write N+1, which none of it
     * but the scanner read. The check and the hand-over are one step under
     * the stamp lock (rg_entry_take_over): checked first and swapped after,
     * a scanner's next stamp could land in between. A take-over that fails
     * looks again: the word moved, by a stamp (whose version the check then
     * sees) or another holder of the lock. After a bounded wait for one
     * under way (it may have been killed) it gives nothing: a scan left a
     * scan costs a refusal, never a wrong allow. */
    take_over_if_recorded(t, e, st, 0);
}

void rg_entry_downgrade(struct rg_entry *e, int32_t pid)
{
    uint32_t view = (uint32_t)pid & RG_READER_PID_MASK;
    atomic_compare_exchange_strong_explicit(&e->reader, &view, view | RG_READER_SCAN,
                                            memory_order_relaxed, memory_order_relaxed);
}

void rg_entry_act_begin(struct rg_entry *e)
{
    uint32_t w = atomic_load_explicit(&e->writing, memory_order_relaxed), next;
    do {
        uint32_t n = w >> RG_WRITING_PID_BITS;
        uint32_t who = n ? w & RG_WRITING_PID_MASK : 0;
        next = (n < RG_WRITING_MAX ? n + 1 : n) << RG_WRITING_PID_BITS | who;
    } while (!atomic_compare_exchange_weak_explicit(&e->writing, &w, next, memory_order_relaxed,
                                                    memory_order_relaxed));
}

__attribute__((noinline, cold)) struct rg_record rg_entry_load_again(const struct rg_table *t,
                                                                     const struct rg_entry *e)
{
    bool calm = false;
    struct rg_record r = {0};
    for (int tries = 0; tries < 3 && !calm; tries++) {
        r = rg_entry_load_once(t, e, &calm);
        calm = calm || !r.found;
    }
    return r;
}
