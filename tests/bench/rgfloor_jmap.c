/* The floor library's index as one shared mapping (tests/bench/rgfloor.c,
 * RG_FLOOR_JMAP=1): a design measured, not built (scripts/dev/bench-notes.md,
 * "git checkout (the journal)"). A process opens, maps and closes the index
 * once, a window larger than the file; each record's room is reserved by an
 * atomic add on a counter in the file's header, shared by every process that
 * maps it; the file is grown by fallocate (which never shrinks it, whoever
 * grows it at once) a MiB at a time before a page past its end is touched;
 * the record's newline is stored first and its opening brace last, so that
 * a reader never takes a torn record whole. */
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "rawsys.h"
#include "rgfloor.h"

#define HEAD 64ul
#define CHUNK (1ul << 20)
#define WINDOW (1ul << 30)

/* The header: the bytes reserved, then the bytes the file is known to hold. */
static char *base;

static bool grow(const char *path, unsigned long need)
{
    unsigned long *room = (unsigned long *)base + 1;
    if (need <= __atomic_load_n(room, __ATOMIC_ACQUIRE))
        return true;
    unsigned long to = (need + CHUNK - 1) & ~(CHUNK - 1);
    long fd = raw_sys4(SYS_openat, AT_FDCWD, (long)path, O_RDWR | O_CLOEXEC, 0);
    bool ok = to <= WINDOW && fd >= 0 && raw_sys4(SYS_fallocate, fd, 0, 0, (long)to) == 0;
    if (fd >= 0)
        raw_sys2(SYS_close, fd, 0);
    for (unsigned long r = __atomic_load_n(room, __ATOMIC_RELAXED); ok && r < to;)
        if (__atomic_compare_exchange_n(room, &r, to, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
            break;
    return ok;
}

static bool map(const char *path)
{
    long fd = raw_sys4(SYS_openat, AT_FDCWD, (long)path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    /* Mode 0 never shrinks the file: no look at its size first. */
    bool sized = raw_sys4(SYS_fallocate, fd, 0, 0, (long)HEAD) == 0;
    void *m =
        sized ? mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0) : MAP_FAILED;
    raw_sys2(SYS_close, fd, 0);
    if (m != MAP_FAILED)
        base = m;
    return m != MAP_FAILED;
}

void rg_floor_jmap_append(const char *path, const char *line, size_t n)
{
    if (n < 2 || (!base && !map(path)))
        return;
    unsigned long at = __atomic_fetch_add((unsigned long *)base, n, __ATOMIC_RELAXED) + HEAD;
    if (!grow(path, at + n))
        return;
    base[at + n - 1] = '\n';
    memcpy(base + at + 1, line + 1, n - 2);
    __atomic_store_n(base + at, line[0], __ATOMIC_RELEASE);
}
