/* The descriptors a context holds open for writing on tracked files, so
 * that letting go of one (close, dup2 over it, exec, exit) restamps its
 * file. Slots below RG_FDMAP_SIZE are lock-free; larger descriptors are
 * rare and go to a locked map. */
#ifndef RG_FDMAP_H
#define RG_FDMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "guard/ctx.h"
/* The locked map's halves of rg_fd_track and rg_fd_take, for descriptors
 * of RG_FDMAP_SIZE and up. */
void rg_fd_track_big(struct rg_ctx *c, int fd, uint64_t dev, uint64_t ino, int32_t opener,
                     void *stream);
bool rg_fd_take_big(struct rg_ctx *c, int fd, struct rg_fdslot *out);
bool rg_fd_peek_big(struct rg_ctx *c, int fd, struct rg_fdslot *out);

/* Inline, as every allowed write tracks its descriptor and its close takes
 * it: a slot is a few stores, and each thread writes only the slots of
 * descriptors it opened or closes. */
static inline void rg_fd_track(struct rg_ctx *c, int fd, uint64_t dev, uint64_t ino, int32_t opener,
                               void *stream)
{
    if (fd < 0)
        return;
    if (fd >= RG_FDMAP_SIZE) {
        rg_fd_track_big(c, fd, dev, ino, opener, stream);
        return;
    }
    struct rg_fdslot *s = &c->fds[fd];
    int used = atomic_load_explicit(&c->fds_used, memory_order_relaxed);
    while (used <= fd &&
           !atomic_compare_exchange_weak_explicit(&c->fds_used, &used, fd + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
    s->dev = (uint32_t)dev;
    s->opener = opener;
    s->stream = stream;
    atomic_store_explicit(&s->ino, ino, memory_order_release);
}

/* Copies fd's slot to out and empties it; false when fd is not tracked. */
static inline bool rg_fd_take(struct rg_ctx *c, int fd, struct rg_fdslot *out)
{
    if (fd < 0)
        return false;
    if (fd >= RG_FDMAP_SIZE)
        return rg_fd_take_big(c, fd, out);
    struct rg_fdslot *s = &c->fds[fd];
    if (atomic_load_explicit(&s->ino, memory_order_relaxed) == 0)
        return false; /* the fast path of every close() */
    out->dev = s->dev;
    out->opener = s->opener;
    out->stream = s->stream;
    uint64_t ino = atomic_exchange_explicit(&s->ino, 0, memory_order_acq_rel);
    atomic_store_explicit(&out->ino, ino, memory_order_relaxed);
    return ino != 0;
}
/* Copies fd's slot to out; false when fd is not tracked. Inline, as
 * rg_fd_take: every close of an allowed write peeks before it takes. */
static inline bool rg_fd_peek(struct rg_ctx *c, int fd, struct rg_fdslot *out)
{
    if (fd < 0)
        return false;
    if (fd >= RG_FDMAP_SIZE)
        return rg_fd_peek_big(c, fd, out);
    struct rg_fdslot *s = &c->fds[fd];
    uint64_t ino = atomic_load_explicit(&s->ino, memory_order_acquire);
    if (ino == 0)
        return false;
    out->dev = s->dev;
    out->opener = s->opener;
    out->stream = s->stream;
    atomic_store_explicit(&out->ino, ino, memory_order_relaxed);
    return true;
}
/* rg_fd_take of the slot rg_fd_peek copied into out: one compare-and-swap
 * empties it if it still holds out's file, the copy made; else, the slot
 * having moved since, rg_fd_take. A close peeks first (whose descriptor
 * is it?), and taking it then cost a second copy. */
static inline bool rg_fd_take_peeked(struct rg_ctx *c, int fd, struct rg_fdslot *out)
{
    uint64_t ino = atomic_load_explicit(&out->ino, memory_order_relaxed);
    if (fd >= 0 && fd < RG_FDMAP_SIZE &&
        atomic_compare_exchange_strong_explicit(&c->fds[fd].ino, &ino, 0, memory_order_acq_rel,
                                                memory_order_relaxed))
        return true;
    return rg_fd_take(c, fd, out);
}
void rg_fd_set_stream(struct rg_ctx *c, int fd, void *stream);
/* One past the highest descriptor below RG_FDMAP_SIZE ever tracked: scans
 * stop there, so a process that tracked nothing touches none of the map
 * (exec scans it in every forked child, and its pages are not shared). */
int rg_fd_slots_used(struct rg_ctx *c);
/* Calls fn on each tracked descriptor in [from, to], taking it out of the
 * map. Callable outside the critical section: it enters for the locked map. */
void rg_fd_take_each(struct rg_ctx *c, int from, int to,
                     void (*fn)(struct rg_ctx *, int, struct rg_fdslot *));

#endif
