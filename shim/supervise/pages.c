/* The supervisor's mapping of the session table, kept whole when its file
 * can no longer back a page. A shared mapping raises SIGBUS on a page past
 * the end of a truncated file, or on a page never touched before of a tmpfs
 * that has filled up meanwhile (the tree can fill /dev/shm). A supervisor
 * killed so would leave the tree unable to run anything at all; instead the
 * page becomes the supervisor's own: zeros, as a page never written holds,
 * and for the header the copy taken at start, so the table stays
 * well-formed. Its entries are then no longer shared with processes outside
 * the tree, and a file whose record is lost reads as unread: a later write
 * is refused, never let through. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "supervise/supervise.h"
/* Process-wide: a SIGBUS handler is the process's and is handed no argument. */
static struct {
    char *base;
    size_t size, page;
    char header[RG_HEADER_SIZE];
} kept;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    char *at = si->si_addr;
    bool sent = si->si_code <= 0; /* kill(), not a fault */
    if (sent || !kept.base || at < kept.base || at >= kept.base + kept.size) {
        /* Not ours: die of it, as without this handler (a fault strikes
         * again when the instruction is retried). */
        signal(sig, SIG_DFL);
        if (sent)
            raise(sig);
        return;
    }
    char *page = (char *)((uintptr_t)at & ~(uintptr_t)(kept.page - 1));
    if (mmap(page, kept.page, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1,
             0) == MAP_FAILED) {
        signal(sig, SIG_DFL);
        return;
    }
    size_t off = (size_t)(page - kept.base);
    if (off < sizeof kept.header)
        memcpy(page, kept.header + off,
               sizeof kept.header - off < kept.page ? sizeof kept.header - off : kept.page);
}

int rg_sv_pages_keep(const struct rg_table *t)
{
    kept.page = (size_t)sysconf(_SC_PAGESIZE);
    if (t->map_size < sizeof kept.header)
        return -1;
    memcpy(kept.header, t->hdr, sizeof kept.header);
    kept.size = t->map_size;
    kept.base = (char *)t->hdr;
    struct sigaction sa = {.sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGBUS, &sa, NULL);
}
