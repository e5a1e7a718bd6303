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
#include <string.h>

#include "guard/ctx.h"
/* rg_path_under for each root, with the roots' lengths known. */
static inline bool rg_under_a_root(const struct rg_ctx *c, const char *path)
{
    for (size_t i = 0; i < c->nroots; i++) {
        size_t n = c->root_len[i];
        if (n == 1 || (strncmp(path, c->roots[i], n) == 0 && (path[n] == '\0' || path[n] == '/')))
            return true; /* n == 1: the root is "/" */
    }
    return false;
}

/* The answer for an absolute path lexically under no root, by its directory. */
bool rg_dir_outside_roots(struct rg_ctx *c, const char *path);

/* The answer for an absolute path: lexically under no root, and its
 * directory outside every root. One call, one frame, made by every
 * absolute read. */
bool rg_abs_outside_roots(struct rg_ctx *c, const char *path);

/* Inline: every read asks, and most are relative, and so recorded without
 * a call ("root/../x" is recorded too: the safe side). */
static inline bool rg_read_outside_roots(struct rg_ctx *c, const char *path)
{
    return path[0] == '/' && rg_abs_outside_roots(c, path);
}

#endif
