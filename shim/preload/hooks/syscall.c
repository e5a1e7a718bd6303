/* syscall(2): programs that bypass glibc's wrappers but not glibc itself.
 * The guarded numbers (core/syscalls.def) are decoded into the same
 * requests as their wrappers, and the descriptor ends (close, dup2, dup3,
 * close_range) restamp the session's writes as their wrappers do; every
 * other number goes to the kernel unchanged. */
#include <errno.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/syscall.h"
#include "preload/hook.h"
#include "preload/hooks/close.h"
#include "preload/hooks/meta.h"
#include "preload/hooks/open.h"
#include "preload/hooks/rename.h"
#include "preload/hooks/truncate.h"
#include "preload/hooks/unlink.h"
static long open_call(const struct rg_syscall *sc, int flags, mode_t mode, uint64_t resolve)
{
    struct rg_request req = {.op = RG_OP_OPEN,
                             .call = sc->via_syscall,
                             .dirfd = sc->dirfd,
                             .path = (const char *)sc->path,
                             .flags = flags,
                             .mode = mode,
                             .resolve = resolve};
    return rg_hook_open(&req);
}

/* openat2 takes its flags in a struct, which another thread may rewrite:
 * they are copied once and only the copy is checked and used. Flags beyond
 * 32 bits do not exist today and the kernel rejects them (EINVAL), so such
 * a call fails here: passed on, the kernel would read flags again that may
 * have become O_WRONLY|O_TRUNC meanwhile. A bad pointer or size is passed
 * on to fail: the kernel reads no flags then. */
static long openat2_call(const struct rg_syscall *sc)
{
    struct open_how how = {0};
    const struct open_how *p = (const struct open_how *)sc->how;
    if (!p || sc->how_size < sizeof how)
        return rg_result(rg_syscall6(SYS_openat2, sc->dirfd, (long)sc->path, (long)sc->how,
                                     (long)sc->how_size, 0, 0),
                         errno);
    memcpy(&how, p, sizeof how);
    if (how.flags >> 32)
        return rg_result(-EINVAL, errno);
    return open_call(sc, (int)how.flags, (mode_t)how.mode, how.resolve);
}

static long guarded(long nr, const uint64_t args[6])
{
    struct rg_syscall sc;
    /* Never false for the numbers syscall_hook passes (core/syscalls.def's);
     * checked all the same, so sc is never read unset. */
    if (!rg_syscall_decode(nr, args, &sc))
        return rg_result(rg_syscall6(nr, (long)args[0], (long)args[1], (long)args[2], (long)args[3],
                                     (long)args[4], (long)args[5]),
                         errno);
    switch (sc.op) {
    case RG_OP_RENAME:
        return rg_hook_rename(sc.via_syscall, sc.olddirfd, (const char *)sc.oldpath, sc.dirfd,
                              (const char *)sc.path, (unsigned)sc.flags);
    case RG_OP_LINK:
        return rg_hook_link(sc.via_syscall, sc.olddirfd, (const char *)sc.oldpath, sc.dirfd,
                            (const char *)sc.path, sc.flags);
    case RG_OP_TRUNCATE:
        return rg_hook_truncate(sc.via_syscall, (const char *)sc.path, (off_t)sc.length);
    case RG_OP_UNLINK:
        return rg_hook_unlink(sc.via_syscall, sc.dirfd, (const char *)sc.path, sc.flags);
    case RG_OP_META: return rg_hook_meta(&sc);
    case RG_OP_XATTR: /* for the supervisor only (core/syscalls.def) */
        return rg_result(rg_syscall6(nr, (long)args[0], (long)args[1], (long)args[2], (long)args[3],
                                     (long)args[4], (long)args[5]),
                         errno);
    default: return sc.flags_in_memory ? openat2_call(&sc) : open_call(&sc, sc.flags, sc.mode, 0);
    }
}

/* Not in core/syscalls.def: the supervisor need not trap them (it restamps
 * what it carries out itself), but a write whose descriptor libuv ends with
 * syscall(SYS_close) would otherwise never be restamped, and the session's
 * own file would be refused to it next time. */
static long descriptor_end(long nr, const uint64_t a[6])
{
    switch (nr) {
    case SYS_close: return rg_hook_close((int)a[0]);
#ifdef SYS_dup2
    case SYS_dup2: return rg_hook_dup2((int)a[0], (int)a[1]);
#endif
    case SYS_dup3: return rg_hook_dup3((int)a[0], (int)a[1], (int)a[2]);
#ifdef SYS_close_range
    case SYS_close_range: return rg_hook_close_range((unsigned)a[0], (unsigned)a[1], (int)a[2]);
#endif
    default: return LONG_MIN;
    }
}

static long syscall_hook(long nr, va_list ap)
{
    uint64_t args[6];
    for (int i = 0; i < 6; i++)
        args[i] = (uint64_t)va_arg(ap, long);
    long r = descriptor_end(nr, args);
    if (r != LONG_MIN)
        return r;
    if (nr == SYS_open_by_handle_at)
        return rg_hook_open_by_handle((int)args[0], (void *)args[1], (int)args[2]);
    switch (nr) {
#define RG_SYSCALL(name, ...) case SYS_##name:
#include "core/syscalls.def"
#undef RG_SYSCALL
        return guarded(nr, args);
    default: break;
    }
    int saved = errno;
    return rg_result(rg_syscall6(nr, (long)args[0], (long)args[1], (long)args[2], (long)args[3],
                                 (long)args[4], (long)args[5]),
                     saved);
}

#define HOOK_SYSCALL(sym)              \
    RG_EXPORT long sym(long nr, ...)   \
    {                                  \
        va_list ap;                    \
        va_start(ap, nr);              \
        long r = syscall_hook(nr, ap); \
        va_end(ap);                    \
        return r;                      \
    }

#undef RG_HOOKS_syscall
#define RG_HOOKS_syscall(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"