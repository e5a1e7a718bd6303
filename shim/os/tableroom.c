#include "os/tableroom.h"
#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "os/sys.h"
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; headers of before it lack it */
#endif

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

/* Can this kernel populate a mapping ahead of use (5.14)? Asked of a page
 * of our own stack, which is there already: before 5.14 the advice is
 * unknown (EINVAL). */
static bool populates(void)
{
    char here;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = (uintptr_t)&here & ~(uintptr_t)(page - 1);
    return rg_sys3(SYS_madvise, (long)at, page, MADV_POPULATE_WRITE) != -EINVAL;
}

/* The index and names are backed a page at a time as they are first
 * touched (core/table.h, rg_table.pages). A kernel that cannot populate
 * them has their room taken here, as before that: else a file system
 * filled up later would kill the first process to touch a new page. */
int rg_table_room_take(int fd, uint32_t capacity)
{
    bool lazy = populates();
    size_t upto = lazy ? RG_HEADER_SIZE : rg_table_entries_at(capacity);
    size_t from = lazy ? rg_table_pages_at(capacity) : rg_table_names_at(capacity);
    int r = no_room(take(fd, 0, upto));
    return r ? r : no_room(take(fd, from, rg_table_file_size(capacity) - from));
}

/* Lazily backed, a table can outgrow its file system only into answers of
 * a full table. Else its entries (and, where fallocate is missing, all of
 * it) are sparse pages whose first touch raises SIGBUS once the file
 * system is full: only a directory with room for all of it is safe. */
size_t rg_table_room_need(uint32_t capacity)
{
    size_t whole = rg_table_file_size(capacity);
    return populates() ? RG_HEADER_SIZE + whole - rg_table_pages_at(capacity) : whole;
}

/* Populating the mapping, not fallocate: a process of the session holds no
 * descriptor of its table (it closes it once mapped), and reopening it by
 * name would cost three calls more and fail wherever the name no longer
 * leads to it. A populate the file system cannot back says so (EFAULT)
 * where a write would have raised SIGBUS; a kernel of before 5.14 does
 * not know it (EINVAL), and the table is then as sparse as before. The
 * start goes down to the machine's page (a range must start on one): a
 * page of the names may start mid-page, after entries of a small table. */
int rg_table_room_back(const struct rg_table *t, size_t off, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *base = (char *)t->hdr;
    size_t start = off - off % page;
    long r =
        rg_sys3(SYS_madvise, (long)(base + start), (long)(off + len - start), MADV_POPULATE_WRITE);
    return r == -EFAULT || r == -ENOMEM || r == -EINTR ? -ENOSPC : 0;
}
