/* Descriptor ends: where the session's own writes get restamped, so that a
 * file it wrote stays writable without another read. */
#include <limits.h>
#include <unistd.h>

#include "preload/hook.h"

RG_EXPORT int close(int fd)
{
    int saved = errno;
    if (rg_fd_idle(fd)) /* most closes: nothing to restamp */
        return (int)rg_result(rg_sys_close(fd), saved);
    struct rg_ctx *c = rg_enter();
    if (c) {
        rg_note_close(c, fd);
        rg_leave();
    }
    return (int)rg_result(rg_sys_close(fd), saved);
}

static int dup_hook(int oldfd, int newfd, int flags)
{
    int saved = errno;
    if (rg_fd_idle(oldfd) && rg_fd_idle(newfd))
        return (int)rg_result(rg_sys_dup3(oldfd, newfd, flags), saved);
    struct rg_ctx *c = rg_enter();
    if (c) {
        rg_note_dup(c, oldfd, newfd);
        rg_leave();
    }
    return (int)rg_result(rg_sys_dup3(oldfd, newfd, flags), saved);
}

RG_EXPORT int dup2(int oldfd, int newfd)
{
    /* dup3 refuses oldfd == newfd; dup2 returns it if it is open. */
    if (oldfd == newfd)
        return fcntl(oldfd, F_GETFD) < 0 ? -1 : newfd;
    return dup_hook(oldfd, newfd, 0);
}

RG_EXPORT int dup3(int oldfd, int newfd, int flags)
{
    return dup_hook(oldfd, newfd, flags);
}

static void note_range(unsigned first, unsigned last)
{
    struct rg_ctx *c = rg_enter();
    if (c) {
        rg_note_close_range(c, first > INT_MAX ? INT_MAX : (int)first,
                            last > INT_MAX ? INT_MAX : (int)last);
        rg_leave();
    }
}

RG_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
    int saved = errno;
    /* With CLOSE_RANGE_CLOEXEC nothing closes now; exec restamps them. */
    if (!(flags & CLOSE_RANGE_CLOEXEC))
        note_range(first, last);
    return (int)rg_result(rg_syscall6(SYS_close_range, first, last, flags, 0, 0, 0), saved);
}

RG_EXPORT void closefrom(int lowfd)
{
    int saved = errno;
    note_range(lowfd < 0 ? 0 : (unsigned)lowfd, ~0u);
    errno = saved;
    RG_REAL(closefrom)(lowfd);
}
