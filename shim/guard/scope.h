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
 * final symlink only if follow). abs receives the absolute path, for the log. */
enum rg_scope rg_scope_locate(const struct rg_ctx *c, int dirfd, const char *path, int fd,
                              bool follow, char *abs, size_t cap);

#endif
