/* syscall(2): programs that bypass glibc's wrappers but not glibc itself.
 * The guarded numbers are decoded into the same requests as their wrappers;
 * every other number goes to the kernel unchanged. */
#include <linux/openat2.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "preload/hook.h"
#include "preload/hooks/open.h"
#include "preload/hooks/rename.h"
#include "preload/hooks/truncate.h"

static long guarded_open(const char *call, int dirfd, long path, long flags, long mode,
                         uint64_t resolve)
{
    struct rg_request req = {RG_OP_OPEN, call, dirfd, (const char *)path, (int)flags,
                             (mode_t)mode, resolve};
    return rg_hook_open(&req);
}

/* openat2 takes its flags in a struct. Flags beyond 32 bits do not exist
 * today; the kernel rejects them, so such a call is passed on to fail. */
static long openat2_call(long dirfd, long path, long howp, long size)
{
    struct open_how how = {0};
    if (!howp || size < (long)sizeof how || (((const struct open_how *)howp)->flags >> 32))
        return rg_result(rg_syscall6(SYS_openat2, dirfd, path, howp, size, 0, 0), errno);
    memcpy(&how, (const void *)howp, sizeof how);
    return guarded_open("syscall(SYS_openat2)", (int)dirfd, path, (long)how.flags,
                        (long)how.mode, how.resolve);
}

RG_EXPORT long syscall(long nr, ...)
{
    va_list ap;
    va_start(ap, nr);
    long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
    long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
    va_end(ap);
    switch (nr) {
#ifdef SYS_open
    case SYS_open: return guarded_open("syscall(SYS_open)", AT_FDCWD, a, b, c, 0);
#endif
#ifdef SYS_creat
    case SYS_creat:
        return guarded_open("syscall(SYS_creat)", AT_FDCWD, a, O_CREAT | O_WRONLY | O_TRUNC, b, 0);
#endif
    case SYS_openat: return guarded_open("syscall(SYS_openat)", (int)a, b, c, d, 0);
    case SYS_openat2: return openat2_call(a, b, c, d);
#ifdef SYS_rename
    case SYS_rename:
        return rg_hook_rename("syscall(SYS_rename)", AT_FDCWD, (const char *)a, AT_FDCWD,
                              (const char *)b, 0);
#endif
#ifdef SYS_renameat
    case SYS_renameat:
        return rg_hook_rename("syscall(SYS_renameat)", (int)a, (const char *)b, (int)c,
                              (const char *)d, 0);
#endif
    case SYS_renameat2:
        return rg_hook_rename("syscall(SYS_renameat2)", (int)a, (const char *)b, (int)c,
                              (const char *)d, (unsigned)e);
    case SYS_truncate: return rg_hook_truncate("syscall(SYS_truncate)", (const char *)a, (off_t)b);
    default: break;
    }
    int saved = errno;
    return rg_result(rg_syscall6(nr, a, b, c, d, e, f), saved);
}
