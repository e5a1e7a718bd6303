/* The descriptors a context holds open for writing on tracked files, so
 * that letting go of one (close, dup2 over it, exec, exit) restamps its
 * file. Slots below RG_FDMAP_SIZE are lock-free; larger descriptors are
 * rare and go to a locked map. */
#ifndef RG_FDMAP_H
#define RG_FDMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "guard/ctx.h"
void rg_fd_track(struct rg_ctx *c, int fd, uint64_t dev, uint64_t ino, int32_t opener,
                 void *stream);
/* Copies fd's slot to out and empties it; false when fd is not tracked. */
bool rg_fd_take(struct rg_ctx *c, int fd, struct rg_fdslot *out);
/* Copies fd's slot to out; false when fd is not tracked. */
bool rg_fd_peek(struct rg_ctx *c, int fd, struct rg_fdslot *out);
void rg_fd_set_stream(struct rg_ctx *c, int fd, void *stream);
/* One past the highest descriptor below RG_FDMAP_SIZE ever tracked: scans
 * stop there, so a process that tracked nothing touches none of the map
 * (exec scans it in every forked child, and its pages are not shared). */
int rg_fd_slots_used(struct rg_ctx *c);
/* Calls fn on each tracked descriptor in [from, to], taking it out of the map. */
void rg_fd_take_each(struct rg_ctx *c, int from, int to,
                     void (*fn)(struct rg_ctx *, int, struct rg_fdslot *));

#endif
