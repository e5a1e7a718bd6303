/* How a session that recorded no end left a file: from its table, which a
 * killed creator leaves behind. undo must not restore over a change made
 * after the session without --force, and without an end record only the
 * table still knows what the session last made of each file. */
#ifndef RG_LEFT_H
#define RG_LEFT_H

#include <limits.h>
#include <stdbool.h>

#include "core/jrecord.h"
#include "os/members.h"

enum rg_left {
    RG_LEFT_AS_IS,   /* as the session last stamped it, gone, or the session runs on */
    RG_LEFT_CHANGED, /* not what the session last stamped */
    RG_LEFT_UNKNOWN, /* the session ended, and its table is gone: nothing tells */
};

/* The session looked up last: undo --all asks once for each file. */
struct rg_left_cache {
    const char *given; /* undo's --session, or NULL: a named table may be where no listing looks */
    char id[RG_JOURNAL_ID_MAX];
    char table[PATH_MAX]; /* "": the session has no table left */
    bool running;
    struct rg_exec_wait wait; /* for all the sessions looked up */
};

/* Is the file at abs as session id left it? Asked only when the journal
 * holds no end record of the session's. */
enum rg_left rg_left_judge(struct rg_left_cache *c, const char *id, const char *abs);

#endif
