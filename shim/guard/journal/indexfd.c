#include "guard/journal/indexfd.h"
#include <fcntl.h>
#include <sys/stat.h>

#include "os/sys.h"
/* What the number fd is now: the index as kept; still ours but no longer
 * to write to (unlinked by a prune, or given a second name under
 * --strict); or another file, or none: the program's. */
enum held { INDEX, OURS_STALE, THEIRS };

static enum held held_as(int fd, uint64_t dev, uint64_t ino, bool strict)
{
    struct stat st;
    if (rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_ino != ino || st.st_dev != dev)
        return THEIRS;
    return (strict ? st.st_nlink == 1 : st.st_nlink >= 1) ? INDEX : OURS_STALE;
}

int rg_jindexfd_get(struct rg_jindexfd *k, bool strict, int *seen)
{
    int fd1 = atomic_load_explicit(&k->fd1, memory_order_acquire);
    *seen = fd1;
    if (fd1 <= 0)
        return -1;
    /* dev and ino may be a later keep's, of the same index reopened: a
     * match still means a descriptor on the index, a mismatch a reopen. */
    uint64_t dev = atomic_load_explicit(&k->dev, memory_order_relaxed);
    uint64_t ino = atomic_load_explicit(&k->ino, memory_order_relaxed);
    enum held h = held_as(fd1 - 1, dev, ino, strict);
    if (h == INDEX)
        return fd1 - 1;
    /* Ours, yet done with: closed by the one thread that clears the slot. */
    if (h == OURS_STALE && atomic_compare_exchange_strong_explicit(
                               &k->fd1, &fd1, 0, memory_order_acquire, memory_order_relaxed)) {
        rg_sys_close(fd1 - 1);
        *seen = 0;
    }
    return -1;
}

/* fd moved to RG_JINDEXFD_LOW or above, else (a limit on descriptors at or
 * below it) above 2; or -1. */
static int moved_up(int fd)
{
    int high = (int)rg_sys3(SYS_fcntl, fd, F_DUPFD_CLOEXEC, RG_JINDEXFD_LOW);
    if (high < 0)
        high = (int)rg_sys3(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 3);
    if (high >= 0)
        rg_sys_close(fd);
    return high;
}

int rg_jindexfd_keep(struct rg_jindexfd *k, int fd, int seen, bool *kept)
{
    *kept = false;
    int high = moved_up(fd);
    if (high < 0)
        return fd;
    fd = high;
    struct stat st;
    if (rg_sys_fstat(fd, &st) != 0)
        return fd;
    atomic_store_explicit(&k->dev, st.st_dev, memory_order_relaxed);
    atomic_store_explicit(&k->ino, st.st_ino, memory_order_relaxed);
    *kept = atomic_compare_exchange_strong_explicit(&k->fd1, &seen, fd + 1, memory_order_release,
                                                    memory_order_relaxed);
    return fd;
}

void rg_jindexfd_reset(struct rg_jindexfd *k)
{
    int fd1 = atomic_exchange_explicit(&k->fd1, 0, memory_order_acquire);
    if (fd1 > 0 && held_as(fd1 - 1, atomic_load_explicit(&k->dev, memory_order_relaxed),
                           atomic_load_explicit(&k->ino, memory_order_relaxed), false) != THEIRS)
        rg_sys_close(fd1 - 1);
}
