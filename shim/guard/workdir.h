/* The working directory a refusal names files from: the one of the process
 * the decision is for, whose user reads the line. */
#ifndef RG_GUARD_WORKDIR_H
#define RG_GUARD_WORKDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "guard/ctx.h"
/* Opens it into *fd, its path into path: in the shim the caller's own
 * (AT_FDCWD), in the supervisor the trapped thread's, a descriptor from
 * /proc/TID/cwd to give back to rg_workdir_close. False when it cannot be
 * told (the thread is gone); path is "" where only the path cannot. */
bool rg_workdir_open(const struct rg_ctx *c, int *fd, char *path, size_t cap);
void rg_workdir_close(int fd);

/* abs named from the directory dir (both absolute): the part below it, or
 * NULL when abs is not below it, or dir is "" or "/". */
const char *rg_workdir_rel(const char *abs, const char *dir);

#endif
