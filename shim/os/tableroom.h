/* Room for a session table on its file system, taken before it is needed.
 * A table is a sparse file mapped MAP_SHARED: a page the file system cannot
 * back when it is first touched raises SIGBUS in whichever process touches
 * it, and anyone may fill /dev/shm after the session began. */
#ifndef RG_TABLEROOM_H
#define RG_TABLEROOM_H

#include <stddef.h>
#include <stdint.h>

#include "core/table.h"

/* Takes the room of what any process reads or writes anywhere at any time
 * (the header, the page map) in the new table file open at fd. 0, or -errno
 * when the file system has no room; 0 too where it cannot reserve room
 * (no fallocate there): such a table is as sparse as ever. */
int rg_table_room_take(int fd, uint32_t capacity);

/* The free room a directory needs for a new table at capacity to be
 * safe there: what rg_table_room_take takes where pages are backed as
 * they are first touched, else the whole table. */
size_t rg_table_room_need(uint32_t capacity);

/* rg_table.back: has the file system back bytes [off, off + len) of t's
 * mapping. 0 when it did or cannot tell, -ENOSPC when it has no room. */
int rg_table_room_back(const struct rg_table *t, size_t off, size_t len);

#endif
