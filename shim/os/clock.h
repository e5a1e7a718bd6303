/* The wall clock, in nanoseconds since the epoch: what a read's record and a
 * log line are stamped with. The one place the code reads the time, so a
 * pure layer takes "now" as an argument instead. */
#ifndef RG_CLOCK_H
#define RG_CLOCK_H

#include <stdint.h>
#include <time.h>

int64_t rg_now_ns(void);

/* A file's time, as the clock's. */
static inline int64_t rg_timespec_ns(const struct timespec *t)
{
    return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* Its inverse, floored: a time before 1970 is negative, and C's division
 * would give it a negative tv_nsec, which utimensat refuses (EINVAL). */
static inline struct timespec rg_ns_timespec(int64_t ns)
{
    int64_t sec = ns / 1000000000, rem = ns % 1000000000;
    if (rem < 0)
        sec -= 1, rem += 1000000000;
    return (struct timespec){.tv_sec = (time_t)sec, .tv_nsec = (long)rem};
}

/* What reads a clock: libc's clock_gettime (its vDSO entry), found on its
 * first call, or a system call when it cannot be found (clock.c says why
 * it is not linked). */
typedef int (*rg_clock_fn)(clockid_t, struct timespec *);
extern rg_clock_fn rg_clock_fn_;

/* Clock id's reading, in nanoseconds. Inline, one indirect call as libc's
 * clock_gettime through the PLT was: a read's record reads the clock in
 * its own frame (guard/scan.h). Async-signal-safe. */
static inline int64_t rg_clock_ns(clockid_t id)
{
    struct timespec ts;
    __atomic_load_n(&rg_clock_fn_, __ATOMIC_RELAXED)(id, &ts);
    return rg_timespec_ns(&ts);
}

/* The same by system call, not through libc's vDSO entry: for a path a
 * process may take once, first at exit (the restamp of an inherited
 * standard descriptor), where finding clock_gettime would cost more than
 * the one reading. */
int64_t rg_now_ns_raw(void);

#endif
