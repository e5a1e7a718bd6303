#include "os/birth.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "os/sys.h"

static int64_t birth_ns(int dirfd, const char *path, int flags, uint64_t dev, uint64_t ino)
{
#ifdef STATX_BTIME
    /* By system call: libc's statx is one more symbol version (GLIBC_2.28)
     * for ld.so to check in every process the shim is loaded into. */
    struct statx sx;
    if (rg_syscall6(SYS_statx, dirfd, (long)path, AT_NO_AUTOMOUNT | flags, STATX_INO | STATX_BTIME,
                    (long)&sx, 0) != 0 ||
        !(sx.stx_mask & STATX_BTIME) || sx.stx_ino != ino ||
        makedev(sx.stx_dev_major, sx.stx_dev_minor) != dev)
        return 0;
    return (int64_t)sx.stx_btime.tv_sec * 1000000000 + sx.stx_btime.tv_nsec;
#else
    /* musl before 1.2.5 has no statx(): ctime stands in (namehint.h). */
    (void)dirfd, (void)path, (void)flags, (void)dev, (void)ino;
    return 0;
#endif
}

int64_t rg_birth_ns(int dirfd, const char *path, uint64_t dev, uint64_t ino)
{
    return birth_ns(dirfd, path, 0, dev, ino);
}

int64_t rg_birth_ns_fd(int fd, uint64_t dev, uint64_t ino)
{
    return birth_ns(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, dev, ino);
}
