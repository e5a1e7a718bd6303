/* New names for what the session guards. Scope belongs to the inode, not to
 * the name a write uses: a hard link or a rename that gives a guarded file
 * a name outside the roots (or under an ignored one) would let it be
 * written there unguarded, and moved back. So giving one is judged as a
 * write to the file (RG_OP_LINK), and moving a directory out of scope as a
 * write to every file in it. Names inside guarded scope cost nothing more
 * than the look that tells so. */
#ifndef RG_NAMES_H
#define RG_NAMES_H

#include "core/request.h"
#include "guard/ctx.h"
/* May req->dirfd/path (a file or a directory, not followed) be given the
 * name req->to_dirfd/to_path? 0, or -EACCES after reporting. */
int rg_guard_new_name(struct rg_ctx *c, const struct rg_request *req);

#endif
