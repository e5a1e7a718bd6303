/* Keeping a file's bytes by copying them into the journal's objects/, named
 * by their SHA-256: what every change that leaves the inode in place (an
 * overwrite, a truncate, an exchange) needs, and the fallback of a link
 * (guard/journal/link.h) across filesystems.
 *
 * The copy is made under a name no one can see (O_TMPFILE, or a dot-name
 * when the filesystem has none) and published with a link that fails if the
 * version is kept already: a kill -9 leaves a complete object or none. */
#ifndef RG_JCOPY_H
#define RG_JCOPY_H

#include "guard/journal/index.h"
/* Copies the bytes of src (a readable descriptor on k's file) into
 * k->objects, and names k->object. 0: kept; 1: a writer of the session
 * changed the file meanwhile, and kept its old bytes itself; else -errno. */
int rg_jcopy_keep(struct rg_jkeep *k, int src);

/* Copies size bytes of src into dst (a reflink where it can): 0 or -errno. */
int rg_jcopy_bytes(int src, int dst, int64_t size);

#endif
