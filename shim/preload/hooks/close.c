/* Descriptor ends: where the session's own writes get restamped, so that a
 * file it wrote stays writable without another read. */
#include <limits.h>
#include <unistd.h>

#include "preload/hook.h"
#include "preload/hooks/close.h"
/* A tracked descriptor, or 0-2, closed by a thread that enters (or is
 * inside already, or before the process is set up). */
__attribute__((noinline)) static int close_entered(int fd)
{
    int saved = errno;
    /* 0-2 of a process not set up: restamped, if at all, without it.
     * Above 2 the hook's rg_fd_idle was the same question. */
    if (fd <= 2 && !rg_fd_needs_ctx(fd, NULL))
        return (int)rg_result(rg_sys_close(fd), saved);
    struct rg_ctx *c = rg_enter();
    if (c) {
        rg_note_close(c, fd);
        rg_leave();
    }
    return (int)rg_result(rg_sys_close(fd), saved);
}

/* Out of line, and a tail call either way, so that neither it nor the idle
 * close below saves a register. */
__attribute__((noinline)) static int close_tracked(int fd)
{
    struct rg_ctx *c;
    /* A write's end in the fast slots, or 0-2 (a tool's close of stdout
     * before exit, a shell's redirections): taking the slot and restamping
     * the file are reentrant (lock-free, and a stamp's wait for another is
     * bounded), as a read's record is, so they run outside, without two
     * signal-mask calls. A thread inside is the shim calling itself: it
     * passes straight through, as rg_enter would make it. */
    if ((unsigned)fd < RG_FDMAP_SIZE && !rg_crit_inside() && (c = rg_ready()))
        return rg_close_noted(c, fd);
    return close_entered(fd);
}

int rg_hook_close(int fd)
{
    /* Most closes: nothing to restamp, and the raw close leaves errno
     * alone unless it fails, so there is none to save. */
    if (rg_fd_idle(fd)) /* the kernel's long, unnarrowed until the errno test */
        return (int)rg_result_raw(rg_syscall1(SYS_close, fd));
    return close_tracked(fd);
}

int rg_hook_dup3(int oldfd, int newfd, int flags)
{
    int saved = errno;
    struct rg_ctx *c = rg_ready();
    /* Before the process sets up, nothing is tracked on oldfd. */
    if ((rg_fd_idle(oldfd) || !c) && !rg_fd_needs_ctx(newfd, NULL))
        return (int)rg_result(rg_sys_dup3(oldfd, newfd, flags), saved);
    /* Both in the fast slots (a shell's redirections): the restamp of what
     * newfd held, the entry and the writer count are lock-free, as a
     * close's are, so no signal-mask calls. */
    if (c && !rg_crit_inside() && (unsigned)oldfd < RG_FDMAP_SIZE &&
        (unsigned)newfd < RG_FDMAP_SIZE) {
        rg_note_dup(c, oldfd, newfd);
        return (int)rg_result(rg_sys_dup3(oldfd, newfd, flags), saved);
    }
    c = rg_enter();
    if (c) {
        rg_note_dup(c, oldfd, newfd);
        rg_leave();
    }
    return (int)rg_result(rg_sys_dup3(oldfd, newfd, flags), saved);
}

int rg_hook_dup2(int oldfd, int newfd)
{
    /* dup3 refuses oldfd == newfd; dup2 returns it if it is open. */
    if (oldfd == newfd)
        return fcntl(oldfd, F_GETFD) < 0 ? -1 : newfd;
    return rg_hook_dup3(oldfd, newfd, 0);
}

static void note_range(unsigned first, unsigned last)
{
    /* Only tracked descriptors are restamped here, and before the process
     * sets up there are none. */
    struct rg_ctx *c = rg_ready() ? rg_enter() : NULL;
    if (c) {
        rg_note_close_range(c, first > INT_MAX ? INT_MAX : (int)first,
                            last > INT_MAX ? INT_MAX : (int)last);
        rg_leave();
    }
}

int rg_hook_close_range(unsigned first, unsigned last, int flags)
{
    int saved = errno;
    /* With CLOSE_RANGE_CLOEXEC nothing closes now; exec restamps them. */
    if (!(flags & CLOSE_RANGE_CLOEXEC))
        note_range(first, last);
    return (int)rg_result(rg_syscall6(SYS_close_range, first, last, flags, 0, 0, 0), saved);
}

#define HOOK_CLOSE(sym) \
    RG_EXPORT int sym(int fd) { return rg_hook_close(fd); }

#define HOOK_DUP2(sym) \
    RG_EXPORT int sym(int oldfd, int newfd) { return rg_hook_dup2(oldfd, newfd); }

#define HOOK_DUP3(sym) \
    RG_EXPORT int sym(int oldfd, int newfd, int flags) { return rg_hook_dup3(oldfd, newfd, flags); }

#define HOOK_CLOSE_RANGE(sym)                                   \
    RG_EXPORT int sym(unsigned first, unsigned last, int flags) \
    {                                                           \
        return rg_hook_close_range(first, last, flags);         \
    }

/* glibc's closefrom closes through its internal close_range. */
#define HOOK_CLOSEFROM(sym)                               \
    RG_EXPORT void sym(int lowfd)                         \
    {                                                     \
        int saved = errno;                                \
        note_range(lowfd < 0 ? 0 : (unsigned)lowfd, ~0u); \
        errno = saved;                                    \
        RG_REAL(sym)(lowfd);                              \
    }

#undef RG_HOOKS_close
#define RG_HOOKS_close(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"