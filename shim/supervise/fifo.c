/* FIFOs. An open of a FIFO waits for its other end, and the supervisor must
 * not wait in a handler thread (a tree of FIFO readers would stall every
 * other call), so its own opens are non-blocking. A non-blocking write-open
 * that succeeds has a reader, so it is what a blocking one would have been.
 * Otherwise (no reader yet, or a read-open, which would wait for a writer) a
 * thread of its own pins the FIFO by an O_PATH descriptor (the inode we
 * looked at, whatever the path becomes), reopens it through that
 * descriptor, blocking, and hands the result over. The non-blocking reader
 * it already has stays open until then: a writer it let in must not find
 * the FIFO without a reader (SIGPIPE) or its reader gone (EOF). A FIFO is
 * never a guarded write: there is nothing in it to lose. */
#include <errno.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/sys.h"
#include "supervise/supervise.h"
struct fifo_wait {
    int listener;
    int pathfd;
    int probe; /* our non-blocking reader, or -1 */
    int flags;
    struct seccomp_notif req;
};

static void *wait_open(void *arg)
{
    struct fifo_wait *w = arg;
    struct rg_sv_call call = {.listener = w->listener, .req = &w->req};
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", w->pathfd);
    int fd = rg_sys_openat(AT_FDCWD, link, w->flags | O_CLOEXEC | O_NOCTTY, 0);
    int r = fd < 0 ? fd : rg_sv_addfd(&call, fd, w->flags & O_CLOEXEC, true);
    if (r < 0)
        rg_sv_reply(&call, r);
    if (fd >= 0)
        rg_sys_close(fd);
    if (w->probe >= 0)
        rg_sys_close(w->probe);
    rg_sys_close(w->pathfd);
    free(w);
    return NULL;
}

bool rg_sv_fifo_wait(const struct rg_sv_call *call, int dfd, const char *path, int flags,
                     uint64_t resolve, int probe)
{
    struct open_how how = {.flags = O_PATH | O_CLOEXEC | (flags & O_NOFOLLOW), .resolve = resolve};
    struct stat st;
    int pfd = rg_sys_openat2(dfd, path, &how, sizeof how);
    if (pfd < 0)
        return false;
    struct fifo_wait *w = malloc(sizeof *w);
    if (fstat(pfd, &st) != 0 || !S_ISFIFO(st.st_mode) || !w) {
        rg_sys_close(pfd);
        free(w);
        return false;
    }
    w->listener = call->listener;
    w->pathfd = pfd;
    w->probe = probe;
    w->flags = flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW | O_NONBLOCK);
    memcpy(&w->req, call->req, sizeof w->req);
    if (rg_sv_spawn(wait_open, w) != 0) {
        rg_sys_close(pfd);
        free(w);
        return false;
    }
    return true;
}
