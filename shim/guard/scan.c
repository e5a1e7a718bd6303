#include "guard/scan.h"
#include <errno.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "core/hot.h"
#include "core/table.h"
#include "os/sys.h"
uint32_t rg_scan_me(struct rg_scan *s)
{
    s->pid = (int32_t)rg_sys_getpid();
    return (uint32_t)s->pid & RG_READER_PID_MASK;
}

bool rg_scan_seen(const struct rg_scan *s, uint32_t next, uint32_t files, uint32_t entry)
{
    uint32_t back = next < files ? next : files;
    for (uint32_t i = 1; i <= back; i++)
        if (s->ring[(next - i) % RG_SCAN_RING].entry == entry)
            return true;
    return false;
}

/* The pace just showed: the views that led up to it were part of the scan.
 * Once per burst, so out of the way of every read's path. */
__attribute__((cold)) void rg_scan_start(const struct rg_table *t, struct rg_scan *s, uint32_t next,
                                         uint32_t files)
{
    for (uint32_t i = 1; i <= files && i <= next; i++) {
        struct rg_scan_read *r = &s->ring[(next - i) % RG_SCAN_RING];
        if (r->view && r->entry - 1 < t->capacity)
            rg_entry_downgrade(&t->entries[r->entry - 1], s->pid);
        r->view = false;
    }
    if (!s->named) {
        char comm[16] = "";
        int saved = errno; /* a read's record keeps none (guard/calls.c) */
        prctl(PR_GET_NAME, comm, 0, 0, 0);
        errno = saved;
        rg_scanner_note(t->hdr, s->pid, comm);
        s->named = true;
    }
}

uint32_t rg_scan_note(struct rg_scan *s, const struct rg_table *t, uint32_t entry)
{
    return rg_scan_push(s, t, entry);
}

/* A fork child writes the header words only, not the ring and the marks
 * (1.5 KiB, a page or two of copy-on-write faults in every child a shell
 * forks): with next at 0 the ring is empty, and every read of it (the
 * inline hit, rg_scan_seen, the pace, rg_scan_start) looks only at
 * positions below next, which this process pushed after the fork. A stale
 * mark only ever sends a lookup on to that walk, and the child's pushes
 * rewrite the mark of every bucket they fill. */
RG_START_TEXT void rg_scan_forget(struct rg_scan *s)
{
    s->pid = 0;
    s->reader = 0;
    s->scanning = false;
    s->named = false;
    atomic_store_explicit(&s->next, 0, memory_order_relaxed);
}
