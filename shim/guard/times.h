/* Setting a file's times: utimensat and the calls glibc builds on it. A
 * session that sets the times of a file whose bytes it knows (cp -p, tar,
 * unzip, shutil.copy2 stamp a copy they just wrote) still knows the bytes
 * afterwards; only the stamp moved, and the move is its own doing. */
#ifndef RG_TIMES_H
#define RG_TIMES_H

#include <time.h>

#include "guard/ctx.h"

/* utimensat(dirfd, path, ts, flags); path NULL: the file open on dirfd.
 * Kernel-style result. */
long rg_guard_utimens(struct rg_ctx *c, int dirfd, const char *path, const struct timespec ts[2],
                      int flags);

#endif
