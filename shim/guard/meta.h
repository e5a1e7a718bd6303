/* The session's own metadata changes: setting a file's times (utimensat and
 * the calls glibc builds on it), its mode, its owner, a new link to it. Each
 * moves the file's ctime, which counts as a change (core/policy.h), so a
 * session that makes one on a file whose bytes it knows (cp -p, tar, unzip,
 * install, chmod +x) would otherwise lock itself out. The bytes did not move
 * and the move is its own doing: afterwards it knows the file as it is. */
#ifndef RG_META_H
#define RG_META_H

#include <stdbool.h>
#include <sys/stat.h>

#include "guard/ctx.h"
/* The file a call changes, as fstatat names it: path NULL means the file
 * open on dirfd; flags are AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH. */
struct rg_meta_file {
    int dirfd;
    const char *path;
    int flags;
};

/* The raw system call that makes the change. sets_mtime: the call may move
 * mtime (utimensat); any other call that finds mtime moved lost a race with
 * a write, which stays unknown. */
struct rg_meta_call {
    long nr;
    long args[6];
    bool sets_mtime;
};

struct rg_syscall;
/* The change a decoded RG_OP_META system call asks for, made on dirfd and
 * path (path NULL: dirfd itself) with the times at times: the caller's own
 * (the syscall() hook), or the supervisor's copies of them. */
void rg_meta_of(const struct rg_syscall *sc, int dirfd, const char *path, const void *times,
                struct rg_meta_file *f, struct rg_meta_call *call);

/* Makes the call; if the session knew the file as it was just before, it
 * knows it as it is just after. Kernel-style result. */
long rg_guard_meta(struct rg_ctx *c, const struct rg_meta_file *f, const struct rg_meta_call *call);

/* The same, where the caller has just looked at the file (seen, from its
 * fstat): a record older than that look is not looked at again. */
long rg_guard_meta_seen(struct rg_ctx *c, const struct rg_meta_file *f,
                        const struct rg_meta_call *call, const struct stat *seen);

#endif
