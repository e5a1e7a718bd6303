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

int rg_anchor_at(struct rg_anchor *a, int dirfd, const char *path, uint64_t resolve)
{
    a->dirfd = dirfd;
    a->name = path;
    a->owned = false;
    /* The kernel refuses these names before it looks at any directory; a
     * name split in two would pass as two short ones, so the call would act
     * where the program's own call fails. */
    size_t end = strnlen(path, PATH_MAX), start;
    if (end == PATH_MAX)
        return -ENAMETOOLONG;
    if (end == 0)
        return -ENOENT;
    while (end > 1 && path[end - 1] == '/')
        end--;
    for (start = end; start > 0 && path[start - 1] != '/'; start--)
        ;
    bool split = start > 0 && start < end && !dots(path + start, end - start);
    /* An absolute name the directory cannot be taken from leaves dirfd
     * unused, as the kernel does. Any other is resolved from dirfd: open
     * it, so that a closed or non-directory dirfd fails here as the call
     * would (EBADF, ENOTDIR) rather than in a check that cannot tell why,
     * and so that a dup2 or chdir in between cannot move the call. */
    if (!split && path[0] == '/')
        return 0;
    memcpy(a->dir, split ? path : ".", split ? start : 1);
    a->dir[split ? start : 1] = '\0';
    int fd = open_dir(dirfd, a->dir, resolve);
    if (fd < 0)
        return fd;
    a->dirfd = fd;
    a->name = split ? path + start : path;
    a->owned = true;
    return 0;
}

void rg_anchor_drop(struct rg_anchor *a)
{
    if (a->owned)
        rg_sys_close(a->dirfd);
    a->owned = false;
}
