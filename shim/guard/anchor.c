#include "guard/anchor.h"
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>

#include "os/sys.h"
/* Is the component of len bytes at s "." or ".."? */
static bool dots(const char *s, size_t len)
{
    return (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.');
}

int rg_anchor_at(struct rg_anchor *a, int dirfd, const char *path, uint64_t resolve)
{
    size_t end = strlen(path), start;
    a->dirfd = dirfd;
    a->name = path;
    a->owned = false;
    while (end > 1 && path[end - 1] == '/')
        end--;
    for (start = end; start > 0 && path[start - 1] != '/'; start--)
        ;
    if (start == 0 || start == end || dots(path + start, end - start) || start >= sizeof a->dir)
        return 0;
    memcpy(a->dir, path, start);
    a->dir[start] = '\0';
    int flags = O_PATH | O_DIRECTORY | O_CLOEXEC, fd;
    if (resolve) {
        struct open_how how = {.flags = (uint64_t)flags, .resolve = resolve};
        fd = rg_sys_openat2(dirfd, a->dir, &how, sizeof how);
    } else {
        fd = rg_sys_openat(dirfd, a->dir, flags, 0);
    }
    if (fd < 0)
        return fd;
    a->dirfd = fd;
    a->name = path + start;
    a->owned = true;
    return 0;
}

void rg_anchor_drop(struct rg_anchor *a)
{
    if (a->owned)
        rg_sys_close(a->dirfd);
    a->owned = false;
}
