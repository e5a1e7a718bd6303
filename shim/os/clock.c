#include "os/clock.h"

#include "os/nextsym.h"
#include "os/sys.h"

/* libc's clock_gettime (its vDSO entry: no system call) is found on first
 * use, not linked: it was the one function that made the shim need the
 * symbol version GLIBC_2.17, and ld.so checks each version a library needs
 * against libc's list when it loads it, in every process, whether it ever
 * reads the clock or not. Found without the loader's lock (os/nextsym.h),
 * as a hook may read the clock in a forked child or a signal handler; when
 * the walk cannot tell, the clock is read by system call: slower, not
 * wrong. The address found is the same in every process that shares or
 * copies this memory. */
rg_clock_fn rg_clock_fn_;

static int by_syscall(clockid_t id, struct timespec *ts)
{
    return (int)rg_sys3(SYS_clock_gettime, id, (long)ts, 0);
}

rg_clock_fn rg_clock_find(void)
{
    rg_clock_fn f = (rg_clock_fn)rg_next_func("clock_gettime");
    if (!f)
        f = by_syscall;
    __atomic_store_n(&rg_clock_fn_, f, __ATOMIC_RELAXED);
    return f;
}

int64_t rg_now_ns(void) { return rg_clock_ns(CLOCK_REALTIME); }

int64_t rg_now_ns_raw(void)
{
    struct timespec ts = {0};
    by_syscall(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
