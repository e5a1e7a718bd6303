/* The journal's objects/ as a prune sees it: one listing, each object
 * looked at once (its weight, when it was kept, a settled linked name's
 * target), and for each the kept sessions that name it. The prune's
 * choices are prune.c's; this only counts. */
#ifndef RG_JOBJECTS_H
#define RG_JOBJECTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <uthash.h>

#include "cli/journal/store.h"
#include "core/jrecord.h"

struct rg_jobj {
    char hex[RG_JOURNAL_OBJECT_MAX]; /* its name in objects/ */
    char to[RG_JOURNAL_OBJECT_MAX];  /* a settled linked name's target, read once */
    int64_t bytes;
    int64_t kept_ns; /* when it was kept, as the listing found it (0: not looked at) */
    bool listed;     /* in the listing, so the sweep may judge it */
    bool link;       /* a symlink: to[] is worth reading */
    bool unsettled;  /* a linked name still holding its bytes (settle.h) */
    int refs;
    size_t seen; /* the session and direction of the last count (rg_jobjs_count) */
    struct rg_jobj *next;
    UT_hash_handle hh;
};

/* What an object weighs on disk. */
static inline int64_t rg_disk_bytes(const struct stat *st) { return (int64_t)st->st_blocks * 512; }

/* Every object in objects/ (the journal's objects directory), each looked
 * at once; what a killed prune left aside is put back for the next. */
struct rg_jobj *rg_jobjs_list(const char *objects);

/* Looks at o again, as it is now (nothing changes when it is gone). */
void rg_jobj_look(struct rg_jobj *o, const char *objects);

/* Settles what the listing found unsettled (settle.h), under the prune's
 * lock, and looks again at each. */
void rg_jobjs_settle(const char *dir, const struct rg_jlist *l, const char *objects,
                     struct rg_jobj *objs);

/* Adds delta to the count of each object records [from, to) of l (one
 * session's) name, and the weight of those it makes named or unnamed to
 * *total. */
void rg_jobjs_count(struct rg_jobj **objs, const struct rg_jlist *l, size_t from, size_t to,
                    const char *objects, int delta, int64_t *total);

void rg_jobjs_free(struct rg_jobj *objs);

#endif
