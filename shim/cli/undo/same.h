/* Whether a file holds the bytes of a version the journal kept: how undo
 * tells a file with nothing to restore, and one whose only changes since
 * the session were undos that put the session's bytes back. */
#ifndef RG_UNDO_SAME_H
#define RG_UNDO_SAME_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/journal/store.h"

/* Is the file at abs a regular file with the permission bits of mode and
 * the bytes of the object named object in journal dir? Where mode is a
 * symbolic link's, a symbolic link to the kept one's target. */
bool rg_undo_holds(const char *dir, const char *object, uint32_t mode, const char *abs);

/* A version of end's file kept after end, by a change that found it as
 * end records the session left it (inode, mtime, size): its bytes are the
 * session's last. NULL when no later change kept the file in that state. */
const struct rg_jrec *rg_undo_kept_as_left(const struct rg_jlist *l, const struct rg_jrec *end);

#endif
