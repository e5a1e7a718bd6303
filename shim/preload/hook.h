/* What every hook file shares: export control, the expansion of
 * hooks.def, lazy lookup of the libc functions a hook still needs, and the
 * enter/leave discipline. */
#ifndef RG_HOOK_H
#define RG_HOOK_H

#include <dlfcn.h>
#include <errno.h>

#include "core/request.h"
#include "guard/calls.h"
#include "guard/critical.h"
#include "guard/fdmap.h"
#include "guard/restamp.h"
#include "os/nextsym.h"
#include "os/symver.h"
#include "os/sys.h"
#include "preload/context.h"
#include "preload/handoff.h"
/* Only hooks are exported (the rest is hidden by -fvisibility=hidden and
 * the version script), so the shim never shadows a program's own symbols. */
#define RG_EXPORT __attribute__((visibility("default")))

/* Each file under hooks/ defines its wrappers by expanding hooks.def: it
 * defines HOOK_<shape>(symbol) for each shape of its family, then
 *
 *   #undef RG_HOOKS_<family>
 *   #define RG_HOOKS_<family>(shape, symbol) HOOK_##shape(symbol)
 *   #include "preload/hooks.def"
 *
 * and the rows of every other family expand to nothing. */
#define RG_HOOK(family, shape, symbol) RG_HOOKS_##family(shape, symbol)
#define RG_HOOKS_open(shape, symbol)
#define RG_HOOKS_stdio(shape, symbol)
#define RG_HOOKS_rename(shape, symbol)
#define RG_HOOKS_truncate(shape, symbol)
#define RG_HOOKS_unlink(shape, symbol)
#define RG_HOOKS_close(shape, symbol)
#define RG_HOOKS_syscall(shape, symbol)
#define RG_HOOKS_spawn(shape, symbol)
#define RG_HOOKS_tmp(shape, symbol)
#define RG_HOOKS_exec(shape, symbol)
#define RG_HOOKS_fork(shape, symbol)
#define RG_HOOKS_shell(shape, symbol)
#define RG_HOOKS_times(shape, symbol)
#define RG_HOOKS_meta(shape, symbol)

/* The next definition of a libc function, looked up on first use: hooks can
 * run before any constructor, from another library's constructor. Found
 * without the loader's lock where the walk can tell (os/nextsym.h): a
 * forked child may have that lock held by a thread it does not have.
 * Kept in .data, on the page ld.so has written anyway: in .bss they would
 * lie past the context, a page fault of their own in every process. */
#define RG_REAL(name)                                                        \
    ({                                                                       \
        static void *real_ __attribute__((section(".data.rg_real"))) = NULL; \
        void *p_ = __atomic_load_n(&real_, __ATOMIC_RELAXED);                \
        if (!p_) {                                                           \
            p_ = rg_next_func(#name);                                        \
            if (!p_)                                                         \
                p_ = dlsym(RTLD_NEXT, #name);                                \
            __atomic_store_n(&real_, p_, __ATOMIC_RELAXED);                  \
        }                                                                    \
        (__typeof__(&(name)))p_;                                             \
    })

/* The mode argument of an open-like variadic call, read only when the flags
 * say there is one (as glibc does). */
#define RG_MODE_ARG(flags)               \
    ({                                   \
        mode_t m_ = 0;                   \
        if (rg_flags_need_mode(flags)) { \
            va_list ap_;                 \
            va_start(ap_, flags);        \
            m_ = va_arg(ap_, mode_t);    \
            va_end(ap_);                 \
        }                                \
        m_;                              \
    })

/* Converts a kernel-style result into the libc convention, restoring the
 * caller's errno on success. */
static inline long rg_result(long r, int saved_errno)
{
    if (r < 0 && r > -4096) {
        errno = (int)-r;
        return -1;
    }
    errno = saved_errno;
    return r;
}

/* rg_result_raw's failure: out of line and cold, so that a hook's path that
 * succeeds keeps no register for the errno call. */
__attribute__((cold, noinline)) static long rg_fail_raw(long r)
{
    errno = (int)-r;
    return -1;
}

/* The same for a raw system call and nothing else, which cannot have moved
 * errno on success: no caller's errno to save and restore. */
static inline long rg_result_raw(long r)
{
    if (__builtin_expect((unsigned long)r > -4096UL, 0))
        return rg_fail_raw(r);
    return r;
}

#endif
