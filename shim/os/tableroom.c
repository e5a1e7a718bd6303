#include "os/tableroom.h"
#include <errno.h>
#include <sys/mman.h>

#include "os/sys.h"
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; headers of before it lack it */
#endif
/* The largest page size of a Linux port: a start rounded down to it is on
 * a page boundary whatever the page size, since the mapping starts on one. */
#define PAGE_MAX 65536u

/* Only a file system out of room refuses: one without fallocate, or a
 * filter that denies it, leaves the table as sparse as before this. */
static int no_room(long r) { return r == -ENOSPC || r == -EDQUOT ? (int)r : 0; }

static long take(int fd, size_t off, size_t len)
{
    long r;
    do
        r = rg_syscall4(SYS_fallocate, fd, 0, (long)off, (long)len);
    while (r == -EINTR);
    return r;
}

int rg_table_room_take(int fd, uint32_t capacity)
{
    size_t names = rg_table_names_at(capacity);
    int r = no_room(take(fd, 0, rg_table_entries_at(capacity)));
    return r ? r : no_room(take(fd, names, rg_table_file_size(capacity) - names));
}

/* Populating the mapping, not fallocate: a process of the session holds no
 * descriptor of its table (it closes it once mapped), and reopening it by
 * name would cost three calls more and fail wherever the name no longer
 * leads to it. A populate the file system cannot back says so (EFAULT)
 * where a write would have raised SIGBUS; a kernel of before 5.14 does
 * not know it (EINVAL), and the table is then as sparse as before. */
int rg_table_room_back(const struct rg_table *t, uint32_t from, uint32_t to)
{
    char *base = (char *)t->hdr;
    size_t start = (size_t)((char *)&t->entries[from] - base);
    size_t end = (size_t)((char *)&t->entries[to] - base);
    start -= start % PAGE_MAX;
    long r = rg_sys3(SYS_madvise, (long)(base + start), (long)(end - start), MADV_POPULATE_WRITE);
    return r == -EFAULT || r == -ENOMEM || r == -EINTR ? -ENOSPC : 0;
}
