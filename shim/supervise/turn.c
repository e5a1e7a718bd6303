/* The listener's turn. One handler thread at a time waits on the listener
 * (the kernel wakes every thread waiting there for each notification), and
 * that thread carries out what it receives itself, keeping its turn: a
 * hand-off to another thread for every call cost a futex wake and a wait,
 * two context switches, about a quarter of the supervisor's CPU under
 * make -j2. A call that is still going after RG_SV_TURN_STALL_NS (a hung
 * file system, a path in a page the tree has not provided yet) must not
 * hold up the rest of the tree, so a watchdog takes the turn from it and
 * passes it to an idle thread; the slow thread, once done, goes idle. */
#include <errno.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "supervise/supervise.h"
/* Long against a call carried out (tens of microseconds), short against
 * what a stalled tree would notice. */
#define RG_SV_TURN_STALL_NS 2000000L
/* With no call for this many ticks, the watchdog sleeps until the next. */
#define IDLE_TICKS 50

struct rg_sv_turn {
    sem_t free;             /* posted while no thread holds the turn */
    sem_t wake;             /* the watchdog's, while it sleeps */
    _Atomic uint32_t busy;  /* the holder's number while it carries out a call, else 0 */
    _Atomic uint64_t calls; /* calls begun, so a stall is the same call seen twice */
    _Atomic bool asleep;    /* the watchdog waits on wake */
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
    atomic_store(&t->busy, me);
    if (atomic_load(&t->asleep) && atomic_exchange(&t->asleep, false))
        sem_post(&t->wake);
}

bool rg_sv_turn_end(struct rg_sv_turn *t, uint32_t me)
{
    uint32_t expect = me;
    return atomic_compare_exchange_strong(&t->busy, &expect, 0);
}

static void tick(void)
{
    struct timespec ts = {0, RG_SV_TURN_STALL_NS};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Sleeps until the next call begins. */
static void doze(struct rg_sv_turn *t, uint64_t seen)
{
    atomic_store(&t->asleep, true);
    if (atomic_load(&t->calls) == seen || !atomic_exchange(&t->asleep, false))
        take(&t->wake); /* woken by a begin, or taking the post of one that raced us */
}

static void *watch(void *arg)
{
    struct rg_sv_turn *t = arg;
    for (int quiet = 0;;) {
        /* busy before calls: a holder counts a call before it says busy. */
        uint32_t who = atomic_load(&t->busy);
        uint64_t seen = atomic_load(&t->calls);
        tick();
        if (who && atomic_load(&t->calls) == seen &&
            atomic_compare_exchange_strong(&t->busy, &who, 0)) {
            rg_sv_turn_give(t); /* the same call a whole tick: stalled */
            quiet = 0;
        } else if (atomic_load(&t->calls) != seen) {
            quiet = 0;
        } else if (++quiet >= IDLE_TICKS && !atomic_load(&t->busy)) {
            doze(t, seen);
            quiet = 0;
        }
    }
    return NULL;
}

struct rg_sv_turn *rg_sv_turn_new(void)
{
    struct rg_sv_turn *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    sem_init(&t->free, 0, 1);
    sem_init(&t->wake, 0, 0);
    if (rg_sv_spawn(watch, t) != 0) {
        free(t);
        return NULL;
    }
    return t;
}
