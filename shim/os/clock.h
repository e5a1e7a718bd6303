/* The wall clock, in nanoseconds since the epoch: what a read's record and a
 * log line are stamped with. The one place the code reads the time, so a
 * pure layer takes "now" as an argument instead. */
#ifndef RG_CLOCK_H
#define RG_CLOCK_H

#include <stdint.h>

int64_t rg_now_ns(void);

/* The same by system call, not through libc's vDSO entry: for a path a
 * process may take once, first at exit (the restamp of an inherited
 * standard descriptor), where binding clock_gettime lazily would cost some
 * 700 instructions for one reading. */
int64_t rg_now_ns_raw(void);

#endif
