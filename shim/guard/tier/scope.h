/* Is a write under one of the session's roots? Decided on the path where the
 * data really lives (symlinks resolved by the kernel), so a link inside a
 * root that points outside is judged by its target, and the other way round.
 * This costs a readlink, so it is only asked for writes that would otherwise
 * be refused. */
#ifndef RG_SCOPE_H
#define RG_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "guard/ctx.h"
/* fd: a descriptor on the target, or -1 to look the path up (following a
 * final symlink only if follow). abs receives the absolute path, for the log.
 * Which tier a guarded path is in costs asking the project: git
 * (gitrules.h), the directories its tools marked (dirmark.h) and its
 * SQLite databases (sqlitedb.h, read through fd when it can be); without
 * ask_project, a path no rule of readguard's decides is RG_SCOPE_GUARDED,
 * which is all the journal needs to know. */
enum rg_scope rg_scope_locate(struct rg_ctx *c, int dirfd, const char *path, int fd, bool follow,
                              bool ask_project, char *abs, size_t cap);

/* The same, without asking git, for a path that names no symbolic link on
 * its way (opened with RESOLVE_NO_SYMLINKS, not following a final one):
 * its real path is the lexical one, joined to the working directory's
 * (which getcwd(3) gives resolved). Any other dirfd than AT_FDCWD, or no
 * working directory, is looked up as rg_scope_locate does. */
enum rg_scope rg_scope_locate_plain(struct rg_ctx *c, int dirfd, const char *path, int fd,
                                    char *abs, size_t cap);

/* The scope a new name dirfd/path would have (for a link, or the
 * destination of a rename), from its directory's real path, the project
 * asked; dir: the name is a directory's, guarded where a file in it would
 * be. A name the call itself cannot take (its directory missing, dirfd
 * closed, too long) counts as guarded, so that the call fails with its own
 * errno; one that cannot be located otherwise counts as outside. */
enum rg_scope rg_scope_of_name(struct rg_ctx *c, int dirfd, const char *path, bool dir, char *abs,
                               size_t cap);
/* The scope of the directory dirfd/path: guarded where a file in it would
 * be, or when it holds a root. */
enum rg_scope rg_scope_of_dir(struct rg_ctx *c, int dirfd, const char *path, char *abs, size_t cap);

/* The tier of to, the destination of a rename from from in the same
 * directory: journaled when a tool rotates its backup there, replacing last
 * time's, after reading the file (sed -i.bak, perl -pi.orig, patch -b) or
 * moving one the project leaves to its tools (autoconf's configure~); else
 * RG_SCOPE_UNKNOWN, to be worked out as for any path. */
enum rg_scope rg_scope_backup(struct rg_ctx *c, bool known, int dirfd, const char *from,
                              const char *to);

#endif
