#include "os/logfile.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/table.h"
#include "os/sys.h"
int rg_state_dir(char *out, size_t cap)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    int n = -1;
    if (state && state[0] == '/')
        n = snprintf(out, cap, "%s/readguard", state);
    else if (home && home[0] == '/')
        n = snprintf(out, cap, "%s/.local/state/readguard", home);
    if (n < 0 || (size_t)n >= cap) {
        out[0] = '\0';
        return -1;
    }
    return n;
}

bool rg_log_in_state_dir(const char *path)
{
    char dir[RG_LOG_PATH_MAX];
    int n = rg_state_dir(dir, sizeof dir - 1);
    if (n < 0)
        return false;
    dir[n++] = '/'; /* the directory's files, not a sibling that starts alike */
    return strncmp(path, dir, (size_t)n) == 0;
}

int rg_log_dir_make(const char *path)
{
    /* A directory a user named is never made: a typo in --log would
     * otherwise leave a tree of directories at the root. */
    if (!rg_log_in_state_dir(path))
        return -ENOENT;
    char dir[RG_LOG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    /* The first failure is the cause, and only the last parent matters. */
    long first = 0, last = 0;
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            long r = rg_syscall6(SYS_mkdirat, AT_FDCWD, (long)dir, 0700, 0, 0, 0);
            last = r == -EEXIST ? 0 : r;
            first = first ? first : last;
            *p = '/';
        }
    return last ? (int)first : 0;
}

/* A kernel before openat2 (5.6) still has O_NOFOLLOW for the file itself;
 * --strict needs 5.19, so no_links always gets openat2 there. */
static int open_in(const char *path, bool no_links)
{
    int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK;
    struct open_how how = {.flags = (unsigned)flags, .mode = 0600, .resolve = RESOLVE_NO_SYMLINKS};
    int fd = no_links ? rg_sys_openat2(AT_FDCWD, path, &how, sizeof how) : -ENOSYS;
    return fd == -ENOSYS ? rg_sys_openat(AT_FDCWD, path, flags, 0600) : fd;
}

int rg_log_open_in(const char *path, bool no_links)
{
    int fd = open_in(path, no_links), made;
    /* What stopped the directory's making (EROFS, EACCES) says more than
     * the ENOENT of the open it left failing. */
    if (fd == -ENOENT)
        fd = (made = rg_log_dir_make(path)) == 0 ? open_in(path, no_links) : made;
    /* Nor a second name of another file (a log under a root, where a link
     * from a guarded file is only a name), nor a FIFO whose reader would
     * take the lines: -ENXIO, as its open would say without one. */
    struct stat st;
    if (fd >= 0 && no_links && (rg_sys_fstat(fd, &st) != 0 || st.st_nlink != 1)) {
        rg_sys_close(fd);
        fd = -EMLINK;
    } else if (fd >= 0 && no_links && !S_ISREG(st.st_mode)) {
        rg_sys_close(fd);
        fd = -ENXIO;
    }
    return fd;
}

int rg_log_set_aside(const char *path)
{
    char aside[PATH_MAX + 32];
    const char *base = strrchr(path, '/');
    size_t dir = base ? (size_t)(base - path) + 1 : 0;
    if (snprintf(aside, sizeof aside, "%.*s.aside-%d-%s", (int)dir, path, (int)rg_sys_getpid(),
                 path + dir) >= (int)sizeof aside)
        return -ENAMETOOLONG;
    return (int)rg_sys_renameat2(AT_FDCWD, path, AT_FDCWD, aside, 0);
}

/* A symbolic link in the log's place is not followed: any process of the
 * user can put one there (a --strict tree beside this session, which finds
 * the log's name from the session's table), and this session's lines
 * would be appended to a file that tree may not write (ELOOP instead, and
 * the warning). But for the names of descriptors and devices a user gives,
 * which are links (/dev/stderr, /dev/fd/2, /proc/self/fd/2). */
static int no_follow(const char *path)
{
    return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0 ? 0 : O_NOFOLLOW;
}

int rg_log_open(const char *path)
{
    /* O_NONBLOCK: a FIFO with no reader at the log's path fails (ENXIO)
     * instead of stopping the process, its signals blocked, in the open. */
    int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | no_follow(path);
    int fd = rg_sys_openat(AT_FDCWD, path, flags, 0600), made;
    if (fd != -ENOENT || (made = rg_log_dir_make(path)) == -ENOENT)
        return fd;
    return made < 0 ? made : rg_sys_openat(AT_FDCWD, path, flags, 0600);
}
