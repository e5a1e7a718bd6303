/* Does git ignore a path? The journaled tier (readguard(1), TIERS) holds
 * what the project's git ignore rules match: every .gitignore from the top
 * of the work tree down to the path's directory, .git/info/exclude and
 * core.excludesFile.
 *
 * Asked only for a write that would otherwise be refused, never on the
 * read path. The files are read once per process and kept, each under its
 * stamp (device, inode, mtime, ctime, size): a stat tells whether a kept
 * copy is still the file, so an edited .gitignore is noticed at the next
 * question, and an unchanged one is never read again. */
#ifndef RG_GITRULES_H
#define RG_GITRULES_H

#include <stdbool.h>

#include "guard/ctx.h"
/* abs: absolute, normalised, not a directory. False also when there is no
 * work tree above abs, or a rules file that exists cannot be read whole:
 * what cannot be told stays guarded. */
bool rg_git_ignores(struct rg_ctx *c, const char *abs);

#endif
