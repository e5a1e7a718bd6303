/* Where tracked inodes live now. The table keys files by (dev, ino) and
 * keeps no path: recording one would cost the shim a getcwd or a readlink
 * on the first read of every file. `status --files` instead walks the
 * session's roots once and names each tracked inode it meets there. */
#ifndef RG_WHERE_H
#define RG_WHERE_H

#include <stddef.h>
#include <stdint.h>

#include "core/table.h"
struct rg_where {
    uint64_t dev, ino;
    size_t entry; /* index in the table's entries */
    char *path;   /* malloc'd, NULL when not found under a root */
};

/* One rg_where per tracked entry (ino != 0), with paths filled in from a
 * walk of the roots that does not follow symbolic links. Sorted by entry.
 * Returns the count; *out is malloc'd. */
size_t rg_where_find(const struct rg_table *t, struct rg_where **out);
void rg_where_free(struct rg_where *w, size_t n);

#endif
