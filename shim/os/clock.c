#include "os/clock.h"
#include <errno.h>

#include "core/hot.h"
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
static int by_syscall(clockid_t id, struct timespec *ts)
{
    *ts = (struct timespec){0};
    return (int)rg_sys3(SYS_clock_gettime, id, (long)ts, 0);
}

/* The first reading in a process (or in any process this memory was copied
 * to before one): finds the function, keeps it for the next, reads. */
static int first_read(clockid_t id, struct timespec *ts)
{
    int saved = errno; /* the lookup may ask dlsym; a read's record keeps none */
    rg_clock_fn f = (rg_clock_fn)rg_next_func("clock_gettime");
    errno = saved;
    if (!f)
        f = by_syscall;
    __atomic_store_n(&rg_clock_fn_, f, __ATOMIC_RELAXED);
    return f(id, ts);
}

rg_clock_fn rg_clock_fn_ = first_read;

int64_t rg_now_ns(void) { return rg_clock_ns(CLOCK_REALTIME); }

RG_START_TEXT int64_t rg_now_ns_raw(void)
{
    struct timespec ts;
    by_syscall(CLOCK_REALTIME, &ts);
    return rg_timespec_ns(&ts);
}
