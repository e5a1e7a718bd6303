#include "os/lineage.h"
#include <stdio.h>
#include <string.h>

#include "os/sys.h"
#define MAX_DEPTH 128

/* The ppid field of /proc/PID/stat: after the last ')', since the comm
 * before it may hold anything, including ") ". 0 when unreadable. */
static int32_t parent_of(int32_t pid)
{
    char path[32], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = rg_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    long n = rg_sys3(SYS_read, fd, (long)buf, sizeof buf - 1);
    rg_sys_close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    /* ") S 1234 ...": no sscanf, which is not async-signal-safe. */
    const char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
        return 0;
    int32_t ppid = 0;
    for (p += 4; *p >= '0' && *p <= '9' && ppid < 0x400000; p++)
        ppid = ppid * 10 + (*p - '0');
    return *p == ' ' ? ppid : 0;
}

bool rg_descends(int32_t pid, int32_t ancestor)
{
    if (ancestor <= 0)
        return false;
    for (int depth = 0; pid > 0 && depth < MAX_DEPTH; depth++) {
        if (pid == ancestor)
            return true;
        if (pid == 1)
            return false;
        pid = parent_of(pid);
    }
    return false;
}
