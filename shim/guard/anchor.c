#include "guard/anchor.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>

#include "os/sys.h"
/* Is the component of len bytes at s "." or ".."? */
static bool dots(const char *s, size_t len)
{
    return (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.');
}

static int open_dir(int dirfd, const char *dir, uint64_t resolve)
{
    int flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    if (!resolve)
        return rg_sys_openat(dirfd, dir, flags, 0);
    struct open_how how = {.flags = (uint64_t)flags, .resolve = resolve};
    return rg_sys_openat2(dirfd, dir, &how, sizeof how);
}

/* Would the directory part dir, of key bytes once its trailing slashes are
 * left out ("./" opens what "." does), be opened exactly as first's was?
 * Then it is the directory first holds: two opens of one string from one
 * dirfd could only differ by a change made between them (a directory
 * renamed or swapped, a chdir, a dup2 over dirfd), which one open leaves
 * out, as the kernel resolving both names at one instant would. */
static bool opened_alike(const struct rg_anchor *first, int dirfd, const char *dir, size_t key,
                         uint64_t resolve)
{
    return first && first->owned && first->resolve == resolve &&
           (first->at == dirfd || (dir[0] == '/' && first->dir[0] == '/')) &&
           first->dir_len == key && memcmp(dir, first->dir, key) == 0;
}

/* rg_anchor_at, sharing first's descriptor where it may (first NULL: never). */
static int anchor(struct rg_anchor *a, const struct rg_anchor *first, int dirfd, const char *path,
                  uint64_t resolve)
{
    a->dirfd = a->at = dirfd;
    a->name = path;
    a->resolve = resolve;
    a->owned = false;
    /* The kernel refuses these names before it looks at any directory; a
     * name split in two would pass as two short ones, so the call would act
     * where the program's own call fails. */
    size_t end = strnlen(path, PATH_MAX);
    if (end == PATH_MAX)
        return -ENAMETOOLONG;
    if (end == 0)
        return -ENOENT;
    while (end > 1 && path[end - 1] == '/')
        end--;
    const char *slash = memrchr(path, '/', end);
    size_t start = slash ? (size_t)(slash - path) + 1 : 0;
    bool split = start > 0 && start < end && !dots(path + start, end - start);
    /* An absolute name the directory cannot be taken from leaves dirfd
     * unused, as the kernel does. Any other is resolved from dirfd: open
     * it, so that a closed or non-directory dirfd fails here as the call
     * would (EBADF, ENOTDIR) rather than in a check that cannot tell why,
     * and so that a dup2 or chdir in between cannot move the call. */
    if (!split && path[0] == '/')
        return 0;
    const char *dir = split ? path : ".";
    size_t len = split ? start : 1, key = len;
    while (key > 1 && dir[key - 1] == '/')
        key--;
    const char *name = split ? path + start : path;
    if (opened_alike(first, dirfd, dir, key, resolve)) {
        a->dirfd = first->dirfd;
        a->name = name;
        return 0;
    }
    memcpy(a->dir, dir, len);
    a->dir[len] = '\0';
    int fd = open_dir(dirfd, a->dir, resolve);
    if (fd < 0)
        return fd;
    a->dir_len = key;
    a->dirfd = fd;
    a->name = name;
    a->owned = true;
    return 0;
}

int rg_anchor_at(struct rg_anchor *a, int dirfd, const char *path, uint64_t resolve)
{
    return anchor(a, NULL, dirfd, path, resolve);
}

int rg_anchor_beside(struct rg_anchor *a, const struct rg_anchor *first, int dirfd,
                     const char *path, uint64_t resolve)
{
    return anchor(a, first, dirfd, path, resolve);
}

void rg_anchor_drop(struct rg_anchor *a)
{
    if (a->owned)
        rg_sys_close(a->dirfd);
    a->owned = false;
}
