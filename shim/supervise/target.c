/* The trapped process, seen from the supervisor: its memory (for the path
 * arguments), its umask and thread group, and its directories. Everything is
 * read through /proc/TID and process_vm_readv, so it is the target's view at
 * the time of the call; a notification still pending after these reads (see
 * rg_sv_still_valid) proves the TID was not reused meanwhile. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "os/sys.h"
#include "supervise/supervise.h"
static long field(const char *status, const char *name, int base)
{
    const char *p = strstr(status, name);
    return p ? strtol(p + strlen(name), NULL, base) : -1;
}

int rg_sv_read_status(int32_t tid, char *buf, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
    int fd = rg_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return fd;
    ssize_t n = read(fd, buf, cap - 1);
    rg_sys_close(fd);
    if (n <= 0)
        return -ESRCH;
    buf[n] = '\0';
    return 0;
}

int rg_sv_target_load(struct rg_sv_target *t, int32_t tid)
{
    char buf[2048];
    int r = rg_sv_read_status(tid, buf, sizeof buf);
    if (r < 0)
        return r;
    long tgid = field(buf, "\nTgid:", 10), mask = field(buf, "\nUmask:", 8);
    if (tgid <= 0)
        return -ESRCH;
    t->tid = tid;
    t->tgid = (int32_t)tgid;
    t->umask = mask >= 0 ? (mode_t)mask : RG_SV_UMASK_UNKNOWN;
    return 0;
}

int rg_sv_read_mem(const struct rg_sv_target *t, uint64_t addr, void *out, size_t len)
{
    struct iovec local = {out, len}, remote = {(void *)addr, len};
    ssize_t n = process_vm_readv(t->tid, &local, 1, &remote, 1, 0);
    return n == (ssize_t)len ? 0 : -EFAULT;
}

/* Most paths are tens of bytes: copying up to a page each time (and
 * searching it for the end) was about a tenth of every read's cost. */
#define FIRST_READ 256

/* Reads page by page: a string may end just before an unmapped page. */
int rg_sv_read_string(const struct rg_sv_target *t, uint64_t addr, char *out, size_t cap)
{
    size_t got = 0;
    if (!addr)
        return -EFAULT;
    while (got < cap) {
        size_t page_left = 4096 - ((addr + got) & 4095);
        size_t want = page_left < cap - got ? page_left : cap - got;
        if (got == 0 && want > FIRST_READ)
            want = FIRST_READ;
        if (rg_sv_read_mem(t, addr + got, out + got, want) < 0)
            return -EFAULT;
        if (memchr(out + got, '\0', want))
            return 0;
        got += want;
    }
    return -ENAMETOOLONG;
}

int rg_sv_dirfd(const struct rg_sv_target *t, int dirfd, const char *path)
{
    char link[64];
    if (path[0] == '/')
        return AT_FDCWD;
    if (dirfd == AT_FDCWD)
        snprintf(link, sizeof link, "/proc/%d/cwd", (int)t->tid);
    else if (dirfd < 0)
        return -EBADF;
    else
        snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)t->tid, dirfd);
    int fd = rg_sys_openat(AT_FDCWD, link, O_PATH | O_CLOEXEC, 0);
    return fd == -ENOENT ? -EBADF : fd;
}
