#include "guard/workdir.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/text.h"
#include "os/sys.h"
bool rg_workdir_open(const struct rg_ctx *c, int *fd, char *path, size_t cap)
{
    *fd = AT_FDCWD;
    if (!c->actor) {
        if (!getcwd(path, cap))
            path[0] = '\0';
        return true;
    }
    /* The thread's own: a thread can leave its process's directory
     * (unshare(CLONE_FS)). Its path is read from the descriptor, so both
     * name one directory even if the process moves on meanwhile. */
    char proc[64], link[RG_FD_LINK_MAX];
    snprintf(proc, sizeof proc, "/proc/%d/cwd", (int)c->actor->tid);
    *fd = rg_sys_openat(AT_FDCWD, proc, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (*fd < 0)
        return false;
    rg_fd_link(link, *fd);
    ssize_t n = readlink(link, path, cap - 1);
    path[n > 0 && (size_t)n < cap - 1 ? n : 0] = '\0';
    return true;
}

void rg_workdir_close(int fd)
{
    if (fd >= 0)
        rg_sys_close(fd);
}

const char *rg_workdir_rel(const char *abs, const char *dir)
{
    size_t n = strlen(dir);
    if (n > 1 && strncmp(abs, dir, n) == 0 && abs[n] == '/')
        return abs + n + 1;
    return NULL;
}
