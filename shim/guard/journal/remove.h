/* Under --strict, the removal itself of a file the journal kept: made so
 * that what goes is the inode the journal kept, whatever the tree renames
 * onto the name in between. */
#ifndef RG_JREMOVE_H
#define RG_JREMOVE_H

#include <sys/stat.h>

#include "guard/ctx.h"
/* Removes name (in dirfd) if it still names the file kept (its stat):
 * 0, -errno as unlinkat, or -EAGAIN when another file took the name since
 * (put back, unchanged). */
int rg_jremove_kept(struct rg_ctx *c, int dirfd, const char *name, const struct stat *kept);

#endif
