/* Keeping a file that is about to lose its last name (an unlink, or a rename
 * over it) without reading a byte of it: the journal gives the inode a name
 * of its own in objects/, and the change then takes away only the user's.
 * The old inode is kept as it was, at the cost of one link; git replacing a
 * thousand files pays no copy and no hash. The name says which inode it was
 * (core/jrecord.h); the CLI names it by content later (cli/journal/settle.h), so
 * identical versions still end up stored once.
 *
 * Only a last name qualifies: with another name left, the inode could still
 * be written through it, and the kept version would change. The one
 * exception is a file moving to a new name (guard/journal/keep.h): a copy there
 * would cost every `mv` its bytes, so the session's writes through the new
 * name keep a copy first, the end of the run copies it before naming it by
 * content (cli/journal/settle.c), and a write from outside the session meanwhile
 * is told by its stamp, as one through a descriptor left open is. */
#ifndef RG_JLINK_H
#define RG_JLINK_H

#include <stdbool.h>
#include <sys/stat.h>

#include "guard/journal/index.h"
/* Links the inode that pfd (an O_PATH descriptor on k's file) opens into
 * k->objects, and names k->object. 0: kept; else -errno, and the caller
 * copies instead: another filesystem (EXDEV), no objects/ yet (ENOENT), no
 * /proc, or a file the caller may not link (EPERM). A symbolic link that
 * cannot be linked is made again there instead, with its target (never
 * copied, which would follow it); -errno when that fails too, with
 * k->unreadable set where its target could not be read. */
int rg_jlink_keep(struct rg_jkeep *k, int pfd);

/* Does objects/ hold the inode st describes by a link the journal made
 * (under any ctime: a move's, made before the rename moved it)? It reads
 * the directory through: for a file too large to copy only. */
bool rg_jlink_holds(const char *objects, const struct stat *st);

/* After the change failed: if dirfd/path still names the inode st describes,
 * the journal's link to it becomes a copy of it, so the journal never holds
 * a file that can still change, and the version the record names and the
 * table counts as kept stays. (When the name is gone, another process
 * removed it, and the link is that removal's kept version.) */
void rg_jlink_drop(struct rg_ctx *c, int dirfd, const char *path, const struct stat *st);

#endif
