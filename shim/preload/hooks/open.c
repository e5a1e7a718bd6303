/* open(2) and its aliases. Every name is its own dynamic symbol in glibc,
 * so each gets its own one-line wrapper; they differ only in shape. */
#include "preload/hooks/open.h"
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/syscall.h>

#include "preload/hook.h"
void rg_hook_read_done(const struct rg_request *req, int fd)
{
    struct rg_ctx *c;
    if (fd < 0)
        return;
    if ((c = rg_ready())) {
        rg_guard_opened_read(c, req, fd);
    } else if ((c = rg_enter())) { /* the process's first hooked call */
        rg_guard_opened_read(c, req, fd);
        rg_leave();
    }
}

/* rg_hook_open, inline in the open wrappers' own request (open_request):
 * a write-open then pays one frame, not two. */
static inline __attribute__((always_inline)) int hook_open(const struct rg_request *req)
{
    if (rg_crit_inside())
        return (int)rg_result_raw(rg_open_unguarded(req));
    /* A read is opened first, outside, and recorded without entering
     * (rg_ready): the common case costs no signal-mask calls. */
    if (!rg_flags_write(req->flags)) {
        int saved = errno; /* a process's first hooked call sets it up */
        int fd = rg_open_outside(req);
        rg_hook_read_done(req, fd);
        return (int)rg_result(fd, saved);
    }
    /* A write is opened before entering, with the program's mask, as a
     * paused open inside would be (guard/calls.h), then judged inside. */
    struct rg_write_open w;
    rg_open_write(req, &w);
    struct rg_ctx *c;
    /* A file the open made, or one the policy allows at first look whose
     * bytes are the session's own, has only its writer to count: reentrant
     * work (lock-free, in the descriptor map's fast slots), done outside
     * as a read's record is, without two signal-mask calls. */
    if ((c = rg_ready()) && rg_guard_write_at_once(c, req, &w))
        return (int)rg_result_raw(w.fd);
    /* Saved only now: the open and the judgement at once are raw system
     * calls, the clock and memory, which leave errno as the program left
     * it (a saved errno was 7 instructions of every write-open); entering
     * and the judgement inside may move it. */
    int saved = errno;
    c = rg_enter();
    if (!c) {
        if (w.fd >= 0)
            rg_sys_close(w.fd);
        return (int)rg_result(rg_open_unguarded(req), saved);
    }
    long r = rg_guard_opened_write(c, req, &w);
    rg_leave();
    return (int)rg_result(r, saved);
}

int rg_hook_open(const struct rg_request *req) { return hook_open(req); }

/* A read opened already (fd >= 0) by a process not set up yet (its first
 * hooked call): out of line, as a set-up process's read tail-calls
 * rg_record_read_at instead. The raw open left errno alone. */
__attribute__((noinline)) static int record_opened(const char *call, int dirfd, const char *path,
                                                   int flags, mode_t mode, int fd)
{
    int saved = errno;
    struct rg_request req = {
        .op = RG_OP_OPEN, .call = call, .dirfd = dirfd, .path = path, .flags = flags, .mode = mode};
    rg_hook_read_done(&req, fd);
    errno = saved;
    return fd;
}

/* Everything but a read: out of line, so that the read's path below needs
 * no request and no frame. */
__attribute__((noinline)) static int open_request(const char *call, int dirfd, const char *path,
                                                  int flags, mode_t mode)
{
    struct rg_request req = {
        .op = RG_OP_OPEN, .call = call, .dirfd = dirfd, .path = path, .flags = flags, .mode = mode};
    return hook_open(&req);
}

/* A read-mode open's flags (rg_flags_write false) that take no mode, as
 * nearly all do: one test instead of rg_flags_write's and
 * rg_flags_need_mode's. */
#define RG_PLAIN_READ_NOT (O_ACCMODE | O_TRUNC | RG_O_CREATES | O_PATH)

/* A read, opened with the raw call (which moves errno only on failure, so
 * none is saved) and, for a file outside every root or a directory, not
 * looked at again: no request is built. Inline in each wrapper: a
 * compiler's header reads are mostly this. */
static inline __attribute__((always_inline)) int open_read(const char *call, int dirfd,
                                                           const char *path, int flags, mode_t mode)
{
    if (rg_crit_inside())
        return open_request(call, dirfd, path, flags, mode);
    int fd = rg_sys_openat(dirfd, path, flags, mode);
    if (fd < 0)
        return (int)rg_result_raw(fd);
    struct rg_ctx *c = rg_ready();
    if (!c)
        return record_opened(call, dirfd, path, flags, mode, fd);
    /* rg_record_read records nothing for O_PATH or O_DIRECTORY (a tree
     * walk opens every directory so). */
    if ((flags & (O_PATH | O_DIRECTORY)) || rg_read_outside_roots(c, path))
        return fd;
    return rg_record_read_at(c, dirfd, path, fd);
}

/* A read with a mode (O_RDONLY | O_CREAT): out of line, as open_read
 * inline needs a frame a write's path does not. */
__attribute__((noinline)) static int open_read_mode(const char *call, int dirfd, const char *path,
                                                    int flags, mode_t mode)
{
    return open_read(call, dirfd, path, flags, mode);
}

/* Any other open: a write, straight to its request (a tail call from the
 * wrapper), or a read with a mode. */
static inline __attribute__((always_inline)) int
open_other(const char *call, int dirfd, const char *path, int flags, mode_t mode)
{
    if (rg_flags_write(flags))
        return open_request(call, dirfd, path, flags, mode);
    return open_read_mode(call, dirfd, path, flags, mode);
}

/* mode is 0 unless the flags take one. */
static inline __attribute__((always_inline)) int open_at(const char *call, int dirfd,
                                                         const char *path, int flags, mode_t mode)
{
    if (!(flags & RG_PLAIN_READ_NOT))
        return open_read(call, dirfd, path, flags, 0);
    return open_other(call, dirfd, path, flags, mode);
}

/* The variadic names are defined with the mode as a named argument, under
 * their symbol (an asm label): GCC makes no tail call from a function that
 * calls va_start, so a read's record and a write's request returned
 * through the wrapper's frame, one more return after the system calls
 * (about 5 ns each here, bench-notes.md). The x86-64 and AArch64 Linux
 * ABIs pass a variadic int in the register of the named one; the mode is
 * read only when the flags take one, as va_arg read it. A plain read is
 * tested first: such flags take none (RG_PLAIN_READ_NOT holds
 * RG_O_CREATES). */
#define RG_OPEN_MODE(flags, mode) (rg_flags_need_mode(flags) ? (mode) : 0)

#define HOOK_OPEN(sym)                                                                  \
    RG_EXPORT int rg_var_##sym(const char *path, int flags, mode_t mode) __asm__(#sym); \
    RG_EXPORT int rg_var_##sym(const char *path, int flags, mode_t mode)                \
    {                                                                                   \
        if (!(flags & RG_PLAIN_READ_NOT))                                               \
            return open_read(#sym, AT_FDCWD, path, flags, 0);                           \
        return open_other(#sym, AT_FDCWD, path, flags, RG_OPEN_MODE(flags, mode));      \
    }

#define HOOK_OPENAT(sym)                                                                           \
    RG_EXPORT int rg_var_##sym(int dirfd, const char *path, int flags, mode_t mode) __asm__(#sym); \
    RG_EXPORT int rg_var_##sym(int dirfd, const char *path, int flags, mode_t mode)                \
    {                                                                                              \
        if (!(flags & RG_PLAIN_READ_NOT))                                                          \
            return open_read(#sym, dirfd, path, flags, 0);                                         \
        return open_other(#sym, dirfd, path, flags, RG_OPEN_MODE(flags, mode));                    \
    }

/* _FORTIFY_SOURCE variants: without a mode, O_CREAT must abort exactly as
 * glibc's does, so that case goes to glibc. */
#define HOOK_OPEN_2(sym)                                \
    RG_EXPORT int sym(const char *path, int flags)      \
    {                                                   \
        if (rg_flags_need_mode(flags))                  \
            return RG_REAL(sym)(path, flags);           \
        return open_at(#sym, AT_FDCWD, path, flags, 0); \
    }

#define HOOK_OPENAT_2(sym)                                    \
    RG_EXPORT int sym(int dirfd, const char *path, int flags) \
    {                                                         \
        if (rg_flags_need_mode(flags))                        \
            return RG_REAL(sym)(dirfd, path, flags);          \
        return open_at(#sym, dirfd, path, flags, 0);          \
    }

#define HOOK_CREAT(sym)                                                           \
    RG_EXPORT int sym(const char *path, mode_t mode)                              \
    {                                                                             \
        return open_at(#sym, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode); \
    }

/* A handle names an inode with no path (as root: CAP_DAC_READ_SEARCH), so
 * a write through one would reach a guarded file unjudged. It is opened
 * O_PATH first, which reads and writes nothing, then reopened by its
 * /proc/self/fd name through the guarded open, as the supervisor's own
 * reopen of an O_PATH descriptor is: the same inode, no window. The
 * kernel walks no path for a handle: it ignores O_NOFOLLOW and a lone
 * O_CREAT, and fails O_CREAT|O_EXCL with EEXIST (the inode exists), where
 * the reopen, which follows a /proc link, would fail O_NOFOLLOW with ELOOP
 * and could not tell the EEXIST. */
int rg_hook_open_by_handle(int mount_fd, void *handle, int flags)
{
    int saved = errno;
    if (!rg_flags_write(flags))
        return (int)rg_result(
            rg_syscall6(SYS_open_by_handle_at, mount_fd, (long)handle, flags, 0, 0, 0), saved);
    long p =
        rg_syscall6(SYS_open_by_handle_at, mount_fd, (long)handle, O_PATH | O_CLOEXEC, 0, 0, 0);
    if (p < 0)
        return (int)rg_result(p, saved);
    if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
        rg_sys_close((int)p);
        return (int)rg_result(-EEXIST, saved);
    }
    char path[32], name[PATH_MAX];
    snprintf(path, sizeof path, "/proc/self/fd/%d", (int)p);
    /* The refusal names the file by its path, not by the descriptor. */
    long n = rg_syscall6(SYS_readlinkat, AT_FDCWD, (long)path, (long)name, sizeof name - 1, 0, 0);
    /* No /proc (a chroot, a namespace without it): no reopen, so no
     * judgement. Refused as the supervisor refuses every handle's open, not
     * with an ENOENT that says an existing file is not there. */
    if (n == -ENOENT) {
        rg_sys_close((int)p);
        return (int)rg_result(-EPERM, saved);
    }
    name[n > 0 ? n : 0] = '\0';
    int reopen = flags & ~(O_CREAT | O_EXCL | O_NOFOLLOW);
    struct rg_request req = {.op = RG_OP_OPEN,
                             .call = "open_by_handle_at",
                             .dirfd = AT_FDCWD,
                             .path = path,
                             .flags = reopen,
                             .shown = n > 0 ? name : NULL};
    int fd = rg_hook_open(&req);
    rg_sys_close((int)p);
    return fd;
}

#define HOOK_BY_HANDLE(sym)                                           \
    RG_EXPORT int sym(int mount_fd, struct file_handle *h, int flags) \
    {                                                                 \
        return rg_hook_open_by_handle(mount_fd, h, flags);            \
    }

#undef RG_HOOKS_open
#define RG_HOOKS_open(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"