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

#include "guard/ask.h"
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

/* Is fd a descriptor this process opened for writing (guard/fdmap.h), on a
 * file whose record counts a writer and names this process as the last to
 * open it for writing? Then a metadata call through fd (tar -x, cp -p,
 * rsync: futimens, fchmod, fchown after the write) has nothing to judge
 * or record, and is made as it stands: until that count drops, every
 * process of the session takes the file as its live writer's (the policy's
 * writer_alive, which fd itself makes true), and the close that drops it
 * restamps the file as the call left it (guard/restamp.c).
 *
 * "This process" is the map's owner (map_pid, set up at start and cleared
 * in a forked child until its first close): no getpid. A forked child's
 * copy of a slot, which may outlive the parent's count, is then not its
 * own; a vfork child's is its parent's, which holds the count while it
 * waits; a copy (opener 0) or a read-only stand-in counts no writer. What
 * this skips could only keep the file known, never let a write through: a
 * race it loses (the count dropped between this test and the call, by
 * another writer's close, or a parent's under a _Fork child, which runs no
 * fork handler) leaves the record stale until a later restamp, a wait or
 * a refusal, never a wrong allow. Lock-free loads only, so a hook asks it
 * without entering and a signal handler may run in the middle. */
static inline bool rg_meta_by_own_writer(struct rg_ctx *c, int fd)
{
    if ((unsigned)fd >= RG_FDMAP_SIZE)
        return false;
    const struct rg_fdslot *s = &c->fds[fd];
    uint64_t ino = atomic_load_explicit(&s->ino, memory_order_acquire);
    int32_t opener = s->opener;
    if (ino == 0 || opener <= 0 ||
        opener != atomic_load_explicit(&c->map_pid, memory_order_relaxed))
        return false;
    const struct rg_entry *e = rg_entry_of_write(c, s->dev, ino, false);
    return e && rg_entry_live_writer(e, opener);
}

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
