/* utimensat, futimens, utime, utimes, lutimes, futimes, futimesat: glibc
 * builds each on the utimensat system call without going through the
 * exported name, so each is hooked, decoded into utimensat's arguments and
 * carried out by guard/meta.c. */
#include <sys/stat.h>
#include <sys/time.h>
#include <utime.h>

#include "guard/meta.h"
#include "preload/hook.h"
#include "preload/hooks/meta.h"

static int utimens(int dirfd, const char *path, const struct timespec *ts, int flags)
{
    struct rg_meta_file f = {dirfd, path, flags};
    struct rg_meta_call call = {SYS_utimensat, {dirfd, (long)path, (long)ts, flags}, true};
    return rg_hook_meta_call(&f, &call);
}

/* The microsecond calls: NULL means now, as it does for utimensat. */
static int utimes_tv(int dirfd, const char *path, const struct timeval tv[2], int flags)
{
    struct timespec ts[2];
    if (!tv)
        return utimens(dirfd, path, NULL, flags);
    for (int i = 0; i < 2; i++) {
        if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000) {
            errno = EINVAL;
            return -1;
        }
        ts[i] = (struct timespec){tv[i].tv_sec, tv[i].tv_usec * 1000};
    }
    return utimens(dirfd, path, ts, flags);
}

#define HOOK_UTIMENSAT(sym)                                                                \
    RG_EXPORT int sym(int dirfd, const char *path, const struct timespec ts[2], int flags) \
    {                                                                                      \
        return utimens(dirfd, path, ts, flags);                                            \
    }

#define HOOK_FUTIMENS(sym) \
    RG_EXPORT int sym(int fd, const struct timespec ts[2]) { return utimens(fd, NULL, ts, 0); }

#define HOOK_UTIME(sym)                                                \
    RG_EXPORT int sym(const char *path, const struct utimbuf *buf)     \
    {                                                                  \
        if (!buf)                                                      \
            return utimens(AT_FDCWD, path, NULL, 0);                   \
        struct timespec ts[2] = {{buf->actime, 0}, {buf->modtime, 0}}; \
        return utimens(AT_FDCWD, path, ts, 0);                         \
    }

#define HOOK_UTIMES(sym)                                            \
    RG_EXPORT int sym(const char *path, const struct timeval tv[2]) \
    {                                                               \
        return utimes_tv(AT_FDCWD, path, tv, 0);                    \
    }

#define HOOK_LUTIMES(sym)                                           \
    RG_EXPORT int sym(const char *path, const struct timeval tv[2]) \
    {                                                               \
        return utimes_tv(AT_FDCWD, path, tv, AT_SYMLINK_NOFOLLOW);  \
    }

#define HOOK_FUTIMES(sym) \
    RG_EXPORT int sym(int fd, const struct timeval tv[2]) { return utimes_tv(fd, NULL, tv, 0); }

#define HOOK_FUTIMESAT(sym)                                                    \
    RG_EXPORT int sym(int dirfd, const char *path, const struct timeval tv[2]) \
    {                                                                          \
        return utimes_tv(dirfd, path, tv, 0);                                  \
    }

#undef RG_HOOKS_times
#define RG_HOOKS_times(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"
