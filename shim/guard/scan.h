/* What counts as a read: a look at a few files, or a scan of many.
 *
 * A process that reads more than the session's scan_files distinct files
 * within scan_window_ns is scanning for as long as it keeps that pace
 * (grep -r, git, a compiler, a test runner). Its reads are recorded as
 * scanned by it: they let it and its descendants write those files, not the
 * rest of the session. Reads at a slower pace are views, which count for the
 * whole session, so the rule depends on the pace alone, never on how long a
 * process has lived or how much it read in all.
 *
 * The last reads of the process are kept in a small ring in its context, so
 * the first reads of a burst, recorded as views before the pace showed, are
 * turned into scans when it does. All of it is reentrant: no lock, no
 * malloc; a signal handler or a second thread may only blur the count. */
#ifndef RG_SCAN_H
#define RG_SCAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define RG_SCAN_RING 64u   /* > RG_SCAN_FILES_MAX, a power of two */
#define RG_SCAN_MARKS 256u /* a power of two, several times RG_SCAN_FILES_MAX */

struct rg_scan {
    int32_t pid;     /* whose reads these are; 0 until the first read */
    uint32_t reader; /* the RG_READER_* word of the last read */
    bool scanning;
    bool named;            /* the header's scanner slot holds our name */
    _Atomic uint32_t next; /* reads pushed so far */
    struct rg_scan_read {
        uint32_t entry; /* table entry number + 1; 0: empty */
        bool view;      /* recorded as our view: downgrade it if a scan shows */
        int64_t at_ns;  /* monotonic (coarse) */
    } ring[RG_SCAN_RING];
    /* For each entry number modulo RG_SCAN_MARKS, the ring position (+1,
     * modulo 2^16) of its bucket's latest push. A bucket not pushed within
     * the last scan_files reads holds none of them: most reads of a scan
     * are new files, and this answers "not seen lately" without walking
     * the ring. It only ever sends a lookup on to the walk, never past it. */
    uint16_t mark[RG_SCAN_MARKS];
};

struct rg_table;

/* Notes that this process read table entry number entry - 1, and returns
 * the reader word (RG_READER_*) to record with it. */
uint32_t rg_scan_note(struct rg_scan *s, const struct rg_table *t, uint32_t entry);

/* The same file as last time (a loop re-reading it, stdio after open) is
 * the hottest case of all: answered inline, from the ring alone. */
static inline uint32_t rg_scan_read(struct rg_scan *s, const struct rg_table *t, uint32_t entry)
{
    uint32_t next = atomic_load_explicit(&s->next, memory_order_relaxed);
    if (next && s->ring[(next - 1) % RG_SCAN_RING].entry == entry)
        return s->reader;
    return rg_scan_note(s, t, entry);
}

/* A forked child's reads are its own. */
void rg_scan_forget(struct rg_scan *s);

#endif
