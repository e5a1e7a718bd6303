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
#include <time.h>

#include "core/table.h"
#include "os/clock.h"

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

/* The cold parts of a note, out of line (scan.c): the process's pid at its
 * first read, the walk of the ring when a bucket's mark says the file may
 * have been read lately, and a scan's start. */
uint32_t rg_scan_me(struct rg_scan *s);
bool rg_scan_seen(const struct rg_scan *s, uint32_t next, uint32_t files, uint32_t entry);
void rg_scan_start(const struct rg_table *t, struct rg_scan *s, uint32_t next, uint32_t files);

/* The window is a second or so: a jiffy's resolution is plenty, and the
 * coarse clock is the cheapest one the vDSO has. */
static inline int64_t rg_scan_clock(void) { return rg_clock_ns(CLOCK_MONOTONIC_COARSE); }

/* Notes that this process read table entry number entry - 1, and returns
 * the reader word (RG_READER_*) to record with it. Inline in a read's
 * record (guard/calls.c), whose frame holds what it keeps across the clock
 * call: out of line, the note's own frame (six registers saved and
 * restored) was a fifth of its cost, paid by every new file a scan reads. */
static inline __attribute__((always_inline)) uint32_t
rg_scan_push(struct rg_scan *s, const struct rg_table *t, uint32_t entry)
{
    uint32_t next = atomic_load_explicit(&s->next, memory_order_relaxed);
    uint32_t me = s->pid ? (uint32_t)s->pid & RG_READER_PID_MASK : rg_scan_me(s);
    uint32_t files = t->hdr->scan_files;
    if (!files)
        return me;
    /* A bucket not pushed within the last files reads holds none of them. */
    uint16_t since = (uint16_t)(next + 1 - s->mark[entry % RG_SCAN_MARKS]);
    if (since != 0 && since <= files && rg_scan_seen(s, next, files, entry))
        return s->reader;
    int64_t now = rg_scan_clock();
    /* This read and the files before it: more than files within the window? */
    bool scanning = next >= files &&
                    now - s->ring[(next - files) % RG_SCAN_RING].at_ns <= t->hdr->scan_window_ns;
    if (scanning && !s->scanning)
        rg_scan_start(t, s, next, files);
    s->scanning = scanning;
    s->reader = scanning ? me | RG_READER_SCAN : me;
    s->ring[next % RG_SCAN_RING] = (struct rg_scan_read){entry, !scanning, now};
    s->mark[entry % RG_SCAN_MARKS] = (uint16_t)(next + 1);
    atomic_store_explicit(&s->next, next + 1, memory_order_relaxed);
    return s->reader;
}

/* rg_scan_push out of line. */
uint32_t rg_scan_note(struct rg_scan *s, const struct rg_table *t, uint32_t entry);

/* The same file as last time (a loop re-reading it, stdio after open) is
 * the hottest case of all: answered inline, from the ring alone. Always
 * inline: with the push in it, gcc kept it out of line, and its frame (six
 * registers saved and restored) cost every read that pushes about 16
 * instructions. */
static inline __attribute__((always_inline)) uint32_t
rg_scan_read(struct rg_scan *s, const struct rg_table *t, uint32_t entry)
{
    uint32_t next = atomic_load_explicit(&s->next, memory_order_relaxed);
    if (next && s->ring[(next - 1) % RG_SCAN_RING].entry == entry)
        return s->reader;
    return rg_scan_push(s, t, entry);
}

/* A forked child's reads are its own. */
void rg_scan_forget(struct rg_scan *s);

#endif
