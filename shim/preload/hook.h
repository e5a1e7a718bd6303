/* What every hook file shares: export control, lazy lookup of the libc
 * functions a hook still needs, and the enter/leave discipline. */
#ifndef RG_HOOK_H
#define RG_HOOK_H

#include <dlfcn.h>
#include <errno.h>

#include "guard/ctx.h"
#include "guard/critical.h"
#include "guard/calls.h"
#include "core/request.h"
#include "os/sys.h"

/* Only hooks are exported (the rest is hidden by -fvisibility=hidden and
 * the version script), so the shim never shadows a program's own symbols. */
#define RG_EXPORT __attribute__((visibility("default")))

/* The next definition of a libc function, looked up on first use: hooks can
 * run before any constructor, from another library's constructor. */
#define RG_REAL(name)                                                          \
    ({                                                                         \
        static void *real_;                                                    \
        void *p_ = __atomic_load_n(&real_, __ATOMIC_RELAXED);                  \
        if (!p_) {                                                             \
            p_ = dlsym(RTLD_NEXT, #name);                                      \
            __atomic_store_n(&real_, p_, __ATOMIC_RELAXED);                    \
        }                                                                      \
        (__typeof__(&(name)))p_;                                               \
    })

/* The mode argument of an open-like variadic call, read only when the flags
 * say there is one (as glibc does). */
#define RG_MODE_ARG(flags)                                                     \
    ({                                                                         \
        mode_t m_ = 0;                                                         \
        if (rg_flags_need_mode(flags)) {                                       \
            va_list ap_;                                                       \
            va_start(ap_, flags);                                              \
            m_ = va_arg(ap_, mode_t);                                          \
            va_end(ap_);                                                       \
        }                                                                      \
        m_;                                                                    \
    })

/* The paths every hook of a kind takes, shared with syscall(). */
/* Records a read-mode open already made (fd < 0: none), without entering
 * the critical section once the shim is ready: reads are most calls, and
 * recording one is reentrant, so they pay no signal-mask calls. */
void rg_hook_read_done(const struct rg_request *req, int fd);
int rg_hook_open(const struct rg_request *req);
int rg_hook_rename(const char *call, int olddir, const char *oldpath, int newdir,
                   const char *newpath, unsigned flags);
int rg_hook_truncate(const char *call, const char *path, off_t length);

#endif
