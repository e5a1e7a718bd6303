/* What the directories above a path decide about its tier, kept for the
 * last directory asked about: a command that writes many files writes them
 * a directory at a time (git checkout, tar -x, a build), and walking the
 * rules down every directory from the root is most of what working out a
 * tier costs. The answer depends on the session's rules and the directory's
 * real path alone, both fixed, so it never goes stale.
 *
 * The directory is kept whole and compared, never a hash of it: a wrong
 * answer could let a write through. One thread at a time uses the cache;
 * another (or a child forked while it was taken) works the answer out
 * without it.
 *
 * So is what the absolute rules say of its files (rg_ignore_dir_freed),
 * from the compiled rules once they are.
 *
 * The rules themselves are kept too, compiled for a file's pass
 * (rg_ignore_compile), by the first thread to need them; until that is
 * done (or in a child forked meanwhile, or for a list too long to
 * compile) the pass reads the list as it is. */
#ifndef RG_TIERCACHE_H
#define RG_TIERCACHE_H

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ignore.h"
#define RG_TIERCACHE_ROOTS 64 /* RG_MAX_ROOTS */

struct rg_tiercache {
    _Atomic int lock;
    size_t len; /* of dir; 0: empty */
    char dir[PATH_MAX];
    uint8_t tier[RG_TIERCACHE_ROOTS];  /* enum rg_tier + 1 per root; 0: not asked yet */
    uint8_t freed[RG_TIERCACHE_ROOTS]; /* rg_ignore_dir_freed + 1 per root; 0: not asked yet */
    _Atomic int compiled_state;        /* 0: not yet; 1: being compiled; 2: done; 3: too long */
    struct rg_ignore_compiled compiled;
};

/* The session's rules (the header's list) and its root number root_index,
 * whose path is root: the cache answers for one set of rules. */
struct rg_rules {
    const char *list;
    size_t len;
    const char *root;
    unsigned root_index;
};

/* Forgets everything: another table's rules are in use. */
static inline void rg_tiercache_reset(struct rg_tiercache *t)
{
    t->len = 0;
    atomic_store_explicit(&t->compiled_state, 0, memory_order_relaxed);
}

/* rg_ignore_tier of abs (absolute, normalised) under r's root, with the
 * directories' half taken from the cache. */
enum rg_tier rg_tiercache_tier(struct rg_tiercache *t, const struct rg_rules *r, const char *abs);

#endif
