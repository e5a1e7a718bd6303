/* A name anchored to its directory: the directory part of a path opened
 * once, so that a check and the call after it (rename, unlink) act on one
 * entry of one directory, whatever the program or its siblings rename in
 * between. A swap of two directories (renameat2 with RENAME_EXCHANGE)
 * between the check and the call would otherwise send the call to a file
 * never checked. */
#ifndef RG_ANCHOR_H
#define RG_ANCHOR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rg_anchor {
    int dirfd;          /* the directory the name is in: the caller's, or ours */
    const char *name;   /* the last component (a trailing slash kept), or the whole path */
    bool owned;         /* dirfd was opened here, and rg_anchor_drop closes it */
    int at;             /* the dirfd the directory was resolved from */
    uint64_t resolve;   /* and how */
    size_t dir_len;     /* owned: dir's length, trailing slashes aside */
    char dir[PATH_MAX]; /* owned: the directory part opened */
};

/* Resolves the directory part of path from dirfd as the call would
 * (symlinks followed; resolve: RESOLVE_* for openat2, 0 for a plain openat),
 * leaving the last component to the call. A relative path of one component,
 * or one ending in "." or "..", keeps its name and is anchored to dirfd
 * itself; "/", or an absolute one ending so, is left as it is. path must
 * outlive a. 0, or -errno as the call would have failed: ENAMETOOLONG,
 * ENOENT for "", EBADF or ENOTDIR for dirfd, or what resolving fails with. */
int rg_anchor_at(struct rg_anchor *a, int dirfd, const char *path, uint64_t resolve);
/* The same for a second name of one call (a rename's new name, first its
 * old one): a directory part that would be resolved as first's was, from
 * the same dirfd (or none, both absolute) by the same string (trailing
 * slashes aside) and with the same resolve, is first's descriptor, not
 * opened again (a->owned false), so first must be dropped after a. Both
 * names are then in one directory, as in the call itself: a directory
 * renamed or swapped between two opens cannot put them in two. */
int rg_anchor_beside(struct rg_anchor *a, const struct rg_anchor *first, int dirfd,
                     const char *path, uint64_t resolve);
void rg_anchor_drop(struct rg_anchor *a);

#endif
