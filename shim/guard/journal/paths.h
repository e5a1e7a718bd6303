/* The session journal's two paths every kept version needs: its objects/
 * directory and its index (sessions/ID.jsonl). Both follow from the table
 * header alone, which never changes under a session, yet building them
 * (the session id in decimal, then the joins) was a tenth of what the
 * unlink hook costs per file git checkout replaces. So each process builds
 * them once, on its first kept version, and keeps them in its context.
 *
 * One thread builds; until it is done (and in a child forked while it was
 * building) everyone else builds their own copy into a buffer of theirs,
 * as before there was a cache. */
#ifndef RG_JPATHS_H
#define RG_JPATHS_H

#include <stdatomic.h>

#include "core/table.h"
/* A path in the journal: its directory, a subdirectory and a name. */
#define RG_JPATH (RG_LOG_PATH_MAX + 128)

struct rg_jpaths {
    _Atomic int state; /* 0: not built; 1: being built; 2: built */
    char objects[RG_JPATH];
    char index[RG_JPATH];
};

/* h's objects/ and index paths, from the cache or else built into the
 * caller's buffers (each RG_JPATH bytes); "" when they do not fit. */
void rg_jpaths_get(struct rg_jpaths *p, const struct rg_header *h, char *objects_buf,
                   char *index_buf, const char **objects, const char **index);

/* Forgets the paths: another table is attached. */
static inline void rg_jpaths_reset(struct rg_jpaths *p)
{
    atomic_store_explicit(&p->state, 0, memory_order_relaxed);
}

#endif
