#ifndef RG_JRESTORE_H
#define RG_JRESTORE_H

#include <stddef.h>

#include "cli/journal/store.h"
#include "cli/undo/spot.h"

/* Writes the kept version r of abs (named file to the user) from journal
 * dir beside it, into spot->tmp, to be put in place once the content abs
 * has now is kept: a reader sees the old file or the restored one, never
 * half of it. Its directories are recreated; spot is its directory, opened
 * once (spot.h), which every later step acts in. 0, with spot open (the
 * caller closes it), or an exit status once told on stderr. */
int rg_jrestore_stage(const char *dir, const struct rg_jrec *r, const char *abs, const char *file,
                      struct rg_jspot *spot);

/* Puts the staged spot->tmp in place of abs; kept is what undo kept of
 * abs. An exit status, or -1 when restored with nothing to say. */
int rg_jrestore_commit(const char *dir, struct rg_jspot *spot, const char *abs, const char *file,
                       const struct rg_jkept *kept);

#endif
