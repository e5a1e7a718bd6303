#include "preload/stdfds.h"
#include <fcntl.h>
#include <sys/stat.h>

#include "core/hot.h"
#include "guard/critical.h"
#include "guard/restamp.h"
#include "os/session.h"
#include "os/sys.h"

/* Is fd a regular file open for writing? Such a descriptor 0-2 (`seq 10 >
 * f`) writes the session's file without a single hooked call. fstat first:
 * most are pipes or terminals, one system call each. */
RG_START_TEXT static bool writes_file(int fd)
{
    struct stat st;
    if (rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    int fl = rg_sys_getfl(fd);
    return fl >= 0 && (fl & O_ACCMODE) != O_RDONLY;
}

/* Restamps descriptors first to last (of 0-2) for a process that never set
 * its context up, so holds nothing of its own: it attaches the session it
 * started in to a table of its own, not the context. No lock is taken, so
 * no fork handlers are needed, and everything is a raw system call, so
 * ld.so binds nothing (at exit, often the only time such a process meets
 * the shim) and errno is left alone. An unusable table restamps nothing,
 * as with the context. */
static void restamp_unready(const char *session, int first, int last)
{
    struct rg_table t = {0};
    if (!session[0] || !rg_crit_enter())
        return;
    if (!rg_session_attach(session, &t)) {
        for (int fd = first; fd <= last; fd++)
            rg_restamp_inherited(&t, fd);
        rg_session_detach(&t);
    }
    rg_crit_leave();
}

void rg_std_restamp(const char *session, int fd, void *stream)
{
    if (writes_file(fd)) {
        rg_flush_pending(stream);
        restamp_unready(session, fd, fd);
    }
}

RG_START_TEXT void rg_std_restamp_at_exit(const char *session)
{
    if (writes_file(0) || writes_file(1) || writes_file(2)) {
        rg_flush_std_pending();
        restamp_unready(session, 0, 2);
    }
}
