#include "guard/fdmap.h"
#include "core/hot.h"
#include "guard/critical.h"
#include <sched.h>
#include <stdlib.h>
#include <uthash.h>

struct rg_overflow {
    int fd;
    struct rg_fdslot slot;
    UT_hash_handle hh;
};

/* Descriptors are the process's own, so each slot has one writer at a time:
 * the thread that opened or closes that descriptor. Large descriptors are
 * rare and go to a locked uthash map. */
static void overflow_lock(struct rg_ctx *c)
{
    while (atomic_exchange_explicit(&c->overflow_lock, 1, memory_order_acquire))
        sched_yield();
}

static void overflow_unlock(struct rg_ctx *c)
{
    atomic_store_explicit(&c->overflow_lock, 0, memory_order_release);
}

void rg_fd_track_big(struct rg_ctx *c, int fd, uint64_t dev, uint64_t ino, int32_t opener,
                     void *stream)
{
    overflow_lock(c);
    struct rg_overflow *o;
    HASH_FIND_INT(c->overflow, &fd, o);
    if (!o && (o = calloc(1, sizeof *o))) {
        o->fd = fd;
        HASH_ADD_INT(c->overflow, fd, o);
    }
    if (o) {
        o->slot.dev = (uint32_t)dev;
        o->slot.opener = opener;
        o->slot.stream = stream;
        atomic_store(&o->slot.ino, ino);
    }
    overflow_unlock(c);
}

static bool overflow_get(struct rg_ctx *c, int fd, struct rg_fdslot *out, bool take)
{
    bool found = false;
    overflow_lock(c);
    struct rg_overflow *o;
    HASH_FIND_INT(c->overflow, &fd, o);
    if (o) {
        out->dev = o->slot.dev;
        out->opener = o->slot.opener;
        out->stream = o->slot.stream;
        atomic_store(&out->ino, atomic_load(&o->slot.ino));
        found = true;
        if (take) {
            HASH_DEL(c->overflow, o);
            free(o);
        }
    }
    overflow_unlock(c);
    return found;
}

bool rg_fd_take_big(struct rg_ctx *c, int fd, struct rg_fdslot *out)
{
    return c->overflow && overflow_get(c, fd, out, true);
}

bool rg_fd_peek_big(struct rg_ctx *c, int fd, struct rg_fdslot *out)
{
    return c->overflow && overflow_get(c, fd, out, false);
}

RG_START_TEXT int rg_fd_slots_used(struct rg_ctx *c)
{
    return atomic_load_explicit(&c->fds_used, memory_order_acquire);
}

void rg_fd_set_stream(struct rg_ctx *c, int fd, void *stream)
{
    struct rg_fdslot s;
    if (rg_fd_peek(c, fd, &s))
        rg_fd_track(c, fd, s.dev, atomic_load(&s.ino), s.opener, stream);
}

void rg_fd_take_each(struct rg_ctx *c, int from, int to,
                     void (*fn)(struct rg_ctx *, int, struct rg_fdslot *))
{
    struct rg_fdslot s;
    int end = rg_fd_slots_used(c);
    for (int fd = from < 0 ? 0 : from; fd < end && fd <= to; fd++)
        if (rg_fd_take(c, fd, &s))
            fn(c, fd, &s);
    if (!c->overflow)
        return;
    /* Its lock and free(): a signal handler's hook must not come in while
     * either is held. A caller inside already stays so. */
    bool entered = rg_crit_enter();
    while (c->overflow) {
        overflow_lock(c);
        struct rg_overflow *o, *tmp, *pick = NULL;
        HASH_ITER(hh, c->overflow, o, tmp)
        if (o->fd >= from && o->fd <= to) {
            pick = o;
            break;
        }
        int fd = pick ? pick->fd : -1;
        overflow_unlock(c);
        if (fd < 0 || !rg_fd_take(c, fd, &s))
            break;
        fn(c, fd, &s);
    }
    if (entered)
        rg_crit_leave();
}
