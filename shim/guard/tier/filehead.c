#include "guard/tier/filehead.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "os/sys.h"

/* rg_file_head through fd, when fd is a regular file open for reading (pread:
 * its offset is left alone); -1 otherwise (write-only, O_PATH, not a
 * regular file), and the caller reads by path. */
static long fd_head(int fd, char *buf, size_t cap)
{
    struct stat st;
    if (fd < 0 || rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    /* A shorter file is read whole without a last read to find its end. */
    if ((off_t)cap > st.st_size)
        cap = (size_t)st.st_size;
    size_t got = 0;
    while (got < cap) {
        long n = rg_sys_pread(fd, buf + got, cap - got, (off_t)got);
        if (n == -EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (long)got;
}

long rg_file_head(const char *path, char *buf, size_t cap)
{
    struct stat st;
    /* The stat spares opening a device, and is all a missing file costs. */
    if (rg_sys_fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size == 0)
        return -1;
    /* O_NONBLOCK: a FIFO swapped in since the stat opens without waiting,
     * and the fstat below then reads nothing of it. */
    int fd =
        rg_sys_openat(AT_FDCWD, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    long n = fd_head(fd, buf, cap);
    rg_sys_close(fd);
    return n;
}

long rg_head_of(const char *path, int fd, char *buf, size_t cap)
{
    long n = fd_head(fd, buf, cap);
    return n >= 0 ? n : rg_file_head(path, buf, cap);
}
