/* The first bytes of a file, read to tell what it is (toolmark.h) while a
 * write to it is being judged. Never a read of anything but a regular
 * file: opening a FIFO may block, opening a device may act. The raw system
 * calls are not hooked, so the read is not the session's: it unlocks
 * nothing. */
#ifndef RG_FILEHEAD_H
#define RG_FILEHEAD_H

#include <stddef.h>

/* Up to cap of the first bytes of the regular file at path (absolute), not
 * following a final symbolic link: the count, or -1 when it is no regular
 * file or cannot be read. */
long rg_file_head(const char *path, char *buf, size_t cap);

/* Through fd when it can be read (sqlite3 opens O_RDWR): the inode judged,
 * not whatever the name holds by now; else by path. fd may be -1. */
long rg_head_of(const char *path, int fd, char *buf, size_t cap);

#endif
