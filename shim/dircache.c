#include "dircache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include "sys.h"
#include "text.h"

/* Bounded: a process that walks a whole file system stops caching. */
#define RG_DIRCACHE_MAX 4096

struct rg_dircache {
    UT_hash_handle hh;
    bool outside;
    char dir[];
};

static bool lexically_plain(const char *path, size_t n)
{
    if (n == 0 || path[0] != '/')
        return false;
    for (size_t i = 0; i + 1 < n; i++)
        if (path[i] == '/' && (path[i + 1] == '/' || path[i + 1] == '.'))
            return false;
    return true;
}

static bool under_a_root(const struct rg_ctx *c, const char *path)
{
    for (size_t i = 0; i < c->nroots; i++)
        if (rg_path_under(path, c->roots[i]))
            return true;
    return false;
}

/* Where the directory really is, or false if that cannot be told. */
static bool resolve_dir(const char *dir, char *out, size_t cap)
{
    char link[64];
    int fd = rg_sys_openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return false;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, cap - 1);
    rg_sys_close(fd);
    if (n <= 0 || out[0] != '/')
        return false;
    out[n] = '\0';
    return true;
}

static void lock(struct rg_ctx *c)
{
    while (atomic_exchange_explicit(&c->dircache_lock, 1, memory_order_acquire))
        ;
}

static void unlock(struct rg_ctx *c)
{
    atomic_store_explicit(&c->dircache_lock, 0, memory_order_release);
}

bool rg_read_outside_roots(struct rg_ctx *c, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (!slash || n >= PATH_MAX || !lexically_plain(path, n + 1))
        return false;
    char dir[PATH_MAX], real[PATH_MAX];
    memcpy(dir, path, n);
    dir[n ? n : 1] = '\0';
    if (n == 0)
        dir[0] = '/';
    if (under_a_root(c, dir))
        return false;
    struct rg_dircache *hit;
    lock(c);
    HASH_FIND_STR(c->dircache, dir, hit);
    bool known = hit != NULL, outside = hit && hit->outside;
    unlock(c);
    if (known)
        return outside;
    outside = resolve_dir(dir, real, sizeof real) && !under_a_root(c, real);
    size_t len = strlen(dir) + 1;
    struct rg_dircache *e = HASH_COUNT(c->dircache) < RG_DIRCACHE_MAX
                                ? malloc(sizeof *e + len) : NULL;
    if (e) {
        e->outside = outside;
        memcpy(e->dir, dir, len);
        lock(c);
        HASH_FIND_STR(c->dircache, dir, hit);
        if (hit)
            free(e);
        else
            HASH_ADD_STR(c->dircache, dir, e);
        unlock(c);
    }
    return outside;
}
