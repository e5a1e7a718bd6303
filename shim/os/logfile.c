#include "os/logfile.h"
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "core/table.h"
#include "os/sys.h"
int rg_log_open(const char *path)
{
    int fd =
        rg_sys_openat(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd != -ENOENT)
        return fd;
    /* Make the missing parents, then try once more. */
    char dir[RG_LOG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0700);
            *p = '/';
        }
    return rg_sys_openat(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY,
                         0600);
}
