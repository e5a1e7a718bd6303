/* The opens the supervisor lets the kernel make unchanged: those whose
 * flags the kernel reads from the same registers checked here and that
 * can neither write nor need recording (O_PATH, read-only directories,
 * and under --supervise read-only opens outside every root or in a
 * directory that does not exist). Everything else is carried out in the
 * caller's name (open.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "core/syscall.h"
#include "guard/dircache.h"
#include "os/sys.h"
#include "supervise/supervise.h"
static bool nothing_to_check(int flags)
{
    if (flags & O_PATH)
        return true;
    return (flags & O_DIRECTORY) && !rg_flags_write(flags) && !(flags & O_CREAT);
}

bool rg_sv_names_self(const char *path)
{
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/", 5) == 0;
}

/* The directory of an absolute path does not exist (a locale or library
 * path probed in vain), so there is nothing to record: the kernel's open
 * fails as ours would, or, if the directory appears meanwhile, makes a read
 * that goes unrecorded, as after a rewritten path. */
static bool no_such_dir(const char *path)
{
    char dir[PATH_MAX];
    size_t n = (size_t)(strrchr(path, '/') - path);
    if (n == 0)
        return false; /* "/" exists */
    memcpy(dir, path, n);
    dir[n] = '\0';
    struct stat st;
    return rg_sys_fstatat(AT_FDCWD, dir, &st, 0) == -ENOENT;
}

/* A read-only open (flags in registers: the kernel takes the very flags
 * checked here) of an absolute path outside every root, by the library's
 * own test (guard/dircache.h), needs no record. If another thread rewrites
 * the path before the kernel reads it again, the worst it gets is a
 * read-only descriptor on a file it may read anyway, unrecorded: a later
 * write to it is refused, never let through. */
static bool read_outside_roots(const struct rg_sv_call *call, const struct rg_syscall *sc)
{
    char path[PATH_MAX];
    if (call->level != RG_SV_HYBRID || (sc->flags & O_ACCMODE) != O_RDONLY ||
        (sc->flags & (RG_O_CREATES | O_TRUNC)))
        return false;
    if (rg_sv_read_string(&call->target, sc->path, path, sizeof path) < 0 || path[0] != '/' ||
        rg_sv_names_self(path) || rg_under_a_root(call->ctx, path))
        return false;
    return rg_dir_outside_roots(call->ctx, path) || no_such_dir(path);
}

bool rg_sv_open_continues(const struct rg_sv_call *call, const struct rg_syscall *sc)
{
    if (sc->flags_in_memory)
        return false; /* openat2: answered ENOSYS by rg_sv_open */
    if (!nothing_to_check(sc->flags) && !read_outside_roots(call, sc))
        return false;
    rg_sv_continue(call);
    return true;
}
