/* The listener's turn. One handler thread at a time waits on the listener
 * (the kernel wakes every thread waiting there for each notification), and
 * that thread carries out what it receives itself, keeping its turn: a
 * hand-off to another thread for every call cost a futex wake and a wait,
 * two context switches, about a quarter of the supervisor's CPU under
 * make -j2. A call that is still going after RG_SV_TURN_STALL_NS (a hung
 * file system, a path in a page the tree has not provided yet) must not
 * hold up the rest of the tree, so a watchdog takes the turn from it and
 * passes it to an idle thread; the slow thread, once done, goes idle.
 *
 * The watchdog has no thread of its own: the reaper's (notify.c) looks at
 * the turn each time it wakes. Two threads ticking every 2 ms woke twice as
 * often as one, and each wake-up is a context switch on a machine the tree
 * keeps busy: about a tenth of the supervisor's CPU under make -j2. */
#include <errno.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "os/clock.h"
#include "supervise/supervise.h"
/* Long against a call carried out (tens of microseconds), short against
 * what a stalled tree would notice. */
#define RG_SV_TURN_STALL_NS 2000000L
/* With no call for this many ticks, the watchdog sleeps until the next. */
#define IDLE_TICKS 50

struct rg_sv_turn {
    sem_t free;             /* posted while no thread holds the turn */
    int wake;               /* eventfd the watchdog's thread waits on while it dozes */
    _Atomic uint32_t busy;  /* the holder's number while it carries out a call, else 0 */
    _Atomic uint64_t calls; /* calls begun, so a stall is the same call seen twice */
    _Atomic uint32_t going; /* calls begun and not ended, stalled ones too */
    _Atomic bool asleep;    /* the watchdog dozes: the next begin wakes it */
    /* The watchdog's own, at its last look: one thread reads and writes them. */
    uint32_t who;
    uint64_t seen;
    int64_t at;
    int quiet;
};

static void take(sem_t *s)
{
    while (sem_wait(s) != 0 && errno == EINTR)
        ;
}

void rg_sv_turn_take(struct rg_sv_turn *t) { take(&t->free); }

void rg_sv_turn_give(struct rg_sv_turn *t) { sem_post(&t->free); }

void rg_sv_turn_begin(struct rg_sv_turn *t, uint32_t me)
{
    atomic_fetch_add(&t->calls, 1);
    atomic_fetch_add(&t->going, 1);
    atomic_store(&t->busy, me);
    if (atomic_load(&t->asleep) && atomic_exchange(&t->asleep, false)) {
        uint64_t one = 1;
        if (write(t->wake, &one, sizeof one) < 0)
            return; /* already signalled */
    }
}

bool rg_sv_turn_end(struct rg_sv_turn *t, uint32_t me)
{
    uint32_t expect = me;
    bool kept = atomic_compare_exchange_strong(&t->busy, &expect, 0);
    atomic_fetch_sub(&t->going, 1);
    return kept;
}

bool rg_sv_turn_drain(struct rg_sv_turn *t, int ms)
{
    int64_t until = rg_clock_ns(CLOCK_MONOTONIC) + (int64_t)ms * 1000000;
    while (atomic_load(&t->going) != 0) {
        if (rg_clock_ns(CLOCK_MONOTONIC) >= until)
            return false;
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    return true;
}

static void look(struct rg_sv_turn *t, int64_t now)
{
    /* busy before calls: a holder counts a call before it says busy. */
    t->who = atomic_load(&t->busy);
    t->seen = atomic_load(&t->calls);
    t->at = now;
}

/* Sleeps until the next call begins, unless one began since the last look. */
static bool doze(struct rg_sv_turn *t)
{
    atomic_store(&t->asleep, true);
    return atomic_load(&t->calls) == t->seen || !atomic_exchange(&t->asleep, false);
}

int rg_sv_turn_watch(struct rg_sv_turn *t)
{
    int64_t now = rg_clock_ns(CLOCK_MONOTONIC), left = t->at + RG_SV_TURN_STALL_NS - now;
    if (left > 0)
        return (int)((left + 999999) / 1000000); /* woken early: the tick goes on */
    uint32_t who = t->who;
    bool same = atomic_load(&t->calls) == t->seen;
    if (who && same && atomic_compare_exchange_strong(&t->busy, &who, 0)) {
        rg_sv_turn_give(t); /* the same call a whole tick: stalled */
        t->quiet = 0;
    } else if (!same) {
        t->quiet = 0;
    } else if (++t->quiet >= IDLE_TICKS && !atomic_load(&t->busy) && doze(t)) {
        t->quiet = 0;
        look(t, now);
        return -1;
    }
    look(t, now);
    return (int)(RG_SV_TURN_STALL_NS / 1000000);
}

struct rg_sv_turn *rg_sv_turn_new(int wake)
{
    struct rg_sv_turn *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    sem_init(&t->free, 0, 1);
    t->wake = wake;
    look(t, rg_clock_ns(CLOCK_MONOTONIC));
    return t;
}
