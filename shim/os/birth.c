#include "os/birth.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

int64_t rg_birth_ns(int dirfd, const char *path, uint64_t dev, uint64_t ino)
{
#ifdef STATX_BTIME
    struct statx sx;
    if (statx(dirfd, path, AT_NO_AUTOMOUNT, STATX_INO | STATX_BTIME, &sx) != 0 ||
        !(sx.stx_mask & STATX_BTIME) || sx.stx_ino != ino ||
        makedev(sx.stx_dev_major, sx.stx_dev_minor) != dev)
        return 0;
    return (int64_t)sx.stx_btime.tv_sec * 1000000000 + sx.stx_btime.tv_nsec;
#else
    /* musl before 1.2.5 has no statx(): ctime stands in (namehint.h). */
    (void)dirfd, (void)path, (void)dev, (void)ino;
    return 0;
#endif
}
