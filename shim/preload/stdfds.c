#include "preload/stdfds.h"
#include <fcntl.h>
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

/* Restamps descriptors 0-2 whose flags fl holds (-1: not written), for a
 * process that never set its context up, so holds nothing of its own: it
 * attaches the session it started in to a table of its own, not the
 * context. No lock is taken, so no fork handlers are needed, and
 * everything is a raw system call, so ld.so binds nothing (at exit, often
 * the only time such a process meets the shim) and errno is left alone.
 * The restamp looks at each file again (a flush may have written it since)
 * but not at its flags, which written_file asked. An unusable table
 * restamps nothing, as with the context. */
static void restamp_unready(const char *session, const int fl[3])
{
    struct rg_table t = {0};
    if (!session[0] || !rg_crit_enter())
        return;
    if (!rg_session_attach(session, &t)) {
        for (int fd = 0; fd <= 2; fd++)
            if (fl[fd] >= 0)
                rg_restamp_written(&t, fd, fl[fd]);
        rg_session_detach(&t);
    }
    rg_crit_leave();
}

void rg_std_restamp(const char *session, int fd, void *stream)
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
