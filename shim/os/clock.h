/* The wall clock, in nanoseconds since the epoch: what a read's record and a
 * log line are stamped with. The one place the code reads the time, so a
 * pure layer takes "now" as an argument instead. */
#ifndef RG_CLOCK_H
#define RG_CLOCK_H

#include <stdint.h>

int64_t rg_now_ns(void);

#endif
