/* Reads outside every root cost no fstat: a read is recorded only because a
 * later write under a root may need it, and a file whose directory lies
 * outside every root (symlinks resolved) is not under one. The answer is
 * cached per directory, so only the first read in a directory pays a lookup.
 *
 * Only absolute paths without "." or ".." components are answered (the
 * compiler's headers, the interpreter's modules); anything else is recorded
 * as before. What this gives up, on the safe side: a read through a symlink
 * or hard link outside the roots whose data lives inside one is not
 * recorded, so a later write there is refused until the file is read by its
 * name under the root. It never lets a write through. */
#ifndef RG_DIRCACHE_H
#define RG_DIRCACHE_H

#include <stdbool.h>

#include "guard/ctx.h"
bool rg_read_outside_roots(struct rg_ctx *c, const char *path);

#endif
