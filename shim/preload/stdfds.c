#include "preload/stdfds.h"
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "core/hot.h"
#include "guard/critical.h"
#include "guard/restamp.h"
#include "guard/streams.h"
#include "os/session.h"
#include "os/sys.h"

/* fd's F_GETFL if it is a regular file open for writing, else -1. Such a
 * descriptor 0-2 (`seq 10 > f`) writes the session's file without a
 * single hooked call. fstat first: most are pipes or terminals, one system
 * call each. */
RG_START_TEXT static int written_file(int fd)
{
    struct stat st;
    if (rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    int fl = rg_sys_getfl(fd);
    return fl >= 0 && (fl & O_ACCMODE) != O_RDONLY ? fl : -1;
}

/* The table the first restamp attached, kept for the next and for the
 * exit: a tool lets go of 1 and 2 in turn (coreutils' close_stdout, at
 * its exit), and each attach is an open, an fstat, a geteuid, an mmap and
 * a close, and a munmap after. Kept as a process that set up keeps its
 * own, for its life. One thread attaches it (KEEPING); another that comes
 * meanwhile, or a child forked meanwhile, which finds KEEPING for good,
 * attaches a table of its own for its restamp, as before. */
enum { NONE, KEEPING, KEPT };
RG_START_DATA static _Atomic int kept_state;
RG_START_DATA static struct rg_table kept;

/* The table to restamp on: the kept one, or own, attached for this
 * restamp alone; NULL if the session's is unusable. */
RG_START_TEXT static struct rg_table *table_for_restamp(const char *session, struct rg_table *own)
{
    int state = atomic_load_explicit(&kept_state, memory_order_acquire);
    if (state == KEPT)
        return &kept;
    if (state == NONE &&
        atomic_compare_exchange_strong_explicit(&kept_state, &state, KEEPING, memory_order_acquire,
                                                memory_order_relaxed)) {
        bool usable = !rg_session_attach(session, &kept);
        atomic_store_explicit(&kept_state, usable ? KEPT : NONE, memory_order_release);
        return usable ? &kept : NULL;
    }
    return rg_session_attach(session, own) ? NULL : own;
}

/* Restamps descriptors 0-2 whose flags fl holds (-1: not written), for a
 * process that never set its context up, so holds nothing of its own: it
 * attaches the session it started in to a table of its own, not the
 * context. No lock is taken, so no fork handlers are needed, and
 * everything is a raw system call, so ld.so binds nothing (at exit, often
 * the only time such a process meets the shim) and errno is left alone.
 * The restamp looks at each file again (a flush may have written it since)
 * but not at its flags, which written_file asked. An unusable table
 * restamps nothing, as with the context. */
RG_START_TEXT static void restamp_unready(const char *session, const int fl[3])
{
    struct rg_table own = {0};
    if (!session[0] || !rg_crit_enter())
        return;
    struct rg_table *t = table_for_restamp(session, &own);
    if (t) {
        for (int fd = 0; fd <= 2; fd++)
            if (fl[fd] >= 0)
                rg_restamp_written(t, fd, fl[fd]);
        if (t == &own)
            rg_session_detach(&own);
    }
    rg_crit_leave();
}

RG_START_TEXT void rg_std_restamp(const char *session, int fd, void *stream)
{
    int fl[3] = {-1, -1, -1};
    if ((unsigned)fd > 2)
        return;
    fl[fd] = written_file(fd);
    if (fl[fd] >= 0) {
        rg_flush_pending(stream);
        restamp_unready(session, fl);
    }
}

RG_START_TEXT void rg_std_restamp_at_exit(const char *session)
{
    int fl[3] = {written_file(0), written_file(1), written_file(2)};
    if (fl[0] >= 0 || fl[1] >= 0 || fl[2] >= 0) {
        rg_flush_std_pending();
        restamp_unready(session, fl);
    }
}
