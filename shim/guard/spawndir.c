#include "guard/spawndir.h"
#include <errno.h>
#include <unistd.h>

#include "core/text.h"
#include "os/procfd.h"
static void take(_Atomic int *lock)
{
    while (atomic_exchange_explicit(lock, 1, memory_order_acquire))
        ;
}

static void give(_Atomic int *lock) { atomic_store_explicit(lock, 0, memory_order_release); }

static int find(const struct rg_spawn_dirs *d, const void *fa)
{
    for (int i = 0; i < RG_SPAWN_DIRS; i++)
        if (d->fa[i] == fa)
            return i;
    return -1;
}

/* base + "/" + rel into out (PATH_MAX), as the kernel will walk it: not
 * folded, since ".." after a symbolic link is the link target's parent.
 * False if it does not fit. */
static bool join(const char *base, const char *rel, char *out)
{
    return rg_concat(out, PATH_MAX, base, "/", rel);
}

/* Where fa's child goes: out (PATH_MAX) from path or fd, seen from the
 * slot i fa already holds (or -1). */
static int target(const struct rg_spawn_dirs *d, int i, const char *path, int fd, char *out)
{
    char base[PATH_MAX];
    if (!path) {
        return rg_fd_path(fd, out, PATH_MAX) < 0 ? -EBADF : 0;
    }
    if (path[0] == '/')
        return rg_concat(out, PATH_MAX, path) ? 0 : -ENAMETOOLONG;
    if (i >= 0)
        rg_concat(base, sizeof base, d->dir[i]);
    else if (!getcwd(base, sizeof base))
        return -errno;
    return join(base, path, out) ? 0 : -ENAMETOOLONG;
}

int rg_spawn_dir_set(_Atomic int *lock, struct rg_spawn_dirs *d, const void *fa, const char *path,
                     int fd)
{
    char dir[PATH_MAX];
    take(lock);
    int i = find(d, fa);
    int r = target(d, i, path, fd, dir);
    if (r == 0 && i < 0 && (i = find(d, NULL)) < 0)
        r = -ENOMEM;
    if (r == 0) {
        d->fa[i] = fa;
        rg_concat(d->dir[i], sizeof d->dir[i], dir);
    }
    give(lock);
    return r;
}

void rg_spawn_dir_drop(_Atomic int *lock, struct rg_spawn_dirs *d, const void *fa)
{
    take(lock);
    int i = find(d, fa);
    if (i >= 0)
        d->fa[i] = NULL;
    give(lock);
}

bool rg_spawn_dir_path(_Atomic int *lock, struct rg_spawn_dirs *d, const void *fa, const char *path,
                       char *out)
{
    if (path[0] == '/')
        return false;
    take(lock);
    int i = find(d, fa);
    bool r = i >= 0 && join(d->dir[i], path, out);
    give(lock);
    return r;
}
