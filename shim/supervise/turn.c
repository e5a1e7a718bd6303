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
 * The watchdog is the reaper's thread (notify.c), woken by a timer that a
 * call's begin sets to go off RG_SV_TURN_STALL_NS later, and that later
 * calls push on: while calls come and end it does not go off. The watchdog
 * had ticked every 2 ms while calls came instead, one wake-up each (a
 * context switch on a CPU the tree keeps busy, often taking it from the
 * tree), and took the turn from a call it saw at two ticks in a row: after
 * 2 to 4 ms. A shell starting programs woke it about once per program. */
#include <errno.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "os/clock.h"
#include "supervise/supervise.h"
/* Long against a call carried out (tens of microseconds), short against
 * what a stalled tree would notice: the old ticks' longest. */
#define RG_SV_TURN_STALL_NS 4000000L
/* A begin pushes the timer on only once it is due this much sooner than
 * the begin's own stall would be: one timerfd_settime per 2 ms of calls at
 * most (about 3 us each on this VM: the timer's hardware is reprogrammed),
 * as many as the poll timeouts the ticks set, with no wake-up. */
#define RG_SV_TURN_SLACK_NS 2000000L

struct rg_sv_turn {
    sem_t free;             /* posted while no thread holds the turn */
    int timer;              /* timerfd the watchdog's thread waits on */
    _Atomic uint32_t busy;  /* the holder's number while it carries out a call, else 0 */
    _Atomic uint64_t calls; /* calls begun, so a look sees whether one began since */
    _Atomic uint32_t going; /* calls begun and not ended, stalled ones too */
    _Atomic int64_t begun;  /* when the last call began, CLOCK_MONOTONIC */
    _Atomic int64_t due;    /* when the timer goes off, as last set */
};

static void take(sem_t *s)
{
    while (sem_wait(s) != 0 && errno == EINTR)
        ;
}

void rg_sv_turn_take(struct rg_sv_turn *t) { take(&t->free); }

void rg_sv_turn_give(struct rg_sv_turn *t) { sem_post(&t->free); }

/* Two threads setting it at once (a begin, the watchdog) may leave due and
 * the timer at either's time. Either is a begin's that has happened, plus
 * the stall: the timer is never late for the call going, and the watchdog
 * sets it again when it goes off early. */
static void set_timer(struct rg_sv_turn *t, int64_t at)
{
    atomic_store(&t->due, at);
    struct itimerspec its = {.it_value = {at / 1000000000, at % 1000000000}};
    timerfd_settime(t->timer, TFD_TIMER_ABSTIME, &its, NULL);
}

void rg_sv_turn_begin(struct rg_sv_turn *t, uint32_t me)
{
    atomic_fetch_add(&t->calls, 1);
    atomic_fetch_add(&t->going, 1);
    int64_t now = rg_clock_ns(CLOCK_MONOTONIC);
    atomic_store(&t->begun, now);
    atomic_store(&t->busy, me);
    /* The clock again, after busy: a timer that went off before then found
     * no call busy and was left off, and is due before this reading. */
    int64_t after = rg_clock_ns(CLOCK_MONOTONIC);
    if (atomic_load(&t->due) < after + RG_SV_TURN_STALL_NS - RG_SV_TURN_SLACK_NS)
        set_timer(t, now + RG_SV_TURN_STALL_NS);
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

int rg_sv_turn_timer(const struct rg_sv_turn *t) { return t->timer; }

void rg_sv_turn_watch(struct rg_sv_turn *t)
{
    uint64_t ticks;
    if (read(t->timer, &ticks, sizeof ticks) < 0)
        return; /* set again since it went off */
    /* A begin stores begun before busy: with calls unmoved since before
     * busy was read, begun is the busy call's. */
    uint64_t seen = atomic_load(&t->calls);
    uint32_t who = atomic_load(&t->busy);
    int64_t begun = atomic_load(&t->begun);
    if (!who || atomic_load(&t->calls) != seen)
        return; /* none going, or a new one has set the timer */
    if (rg_clock_ns(CLOCK_MONOTONIC) - begun < RG_SV_TURN_STALL_NS)
        set_timer(t, begun + RG_SV_TURN_STALL_NS);
    else if (atomic_compare_exchange_strong(&t->busy, &who, 0))
        rg_sv_turn_give(t); /* stalled */
}

struct rg_sv_turn *rg_sv_turn_new(void)
{
    struct rg_sv_turn *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (t->timer < 0) {
        free(t);
        return NULL;
    }
    sem_init(&t->free, 0, 1);
    return t;
}
