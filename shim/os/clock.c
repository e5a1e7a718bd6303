#include "os/clock.h"
#include <time.h>

#include "os/sys.h"

int64_t rg_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t rg_now_ns_raw(void)
{
    struct timespec ts = {0};
    rg_sys3(SYS_clock_gettime, CLOCK_REALTIME, (long)&ts, 0);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
