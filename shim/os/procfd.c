#include "os/procfd.h"
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "os/sys.h"
bool rg_pid_holds(int32_t pid, uint64_t dev, uint64_t ino)
{
    char dir[64], buf[4096];
    if (pid <= 0)
        return false;
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    int dfd = rg_sys_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0)
        return false;
    bool held = false;
    long n;
    while (!held && (n = rg_syscall6(SYS_getdents64, dfd, (long)buf, sizeof buf, 0, 0, 0)) > 0) {
        for (long off = 0; off < n && !held;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            struct stat st;
            held = d->d_name[0] != '.' && rg_sys_fstatat(dfd, d->d_name, &st, 0) == 0 &&
                   st.st_ino == ino && st.st_dev == dev;
            off += d->d_reclen;
        }
    }
    rg_sys_close(dfd);
    return held;
}
