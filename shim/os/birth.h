/* When a file came to be: its birth time, which only a creation sets. Asked
 * to word a refusal (core/namehint.h), and by undo, to tell the link it
 * made from one put in its place (cli/undo/spot.h). */
#ifndef RG_BIRTH_H
#define RG_BIRTH_H

#include <stdint.h>

/* The birth time of dirfd/path (followed), in ns, if it is still the inode
 * dev/ino; 0 when the file system or the C library does not say. */
int64_t rg_birth_ns(int dirfd, const char *path, uint64_t dev, uint64_t ino);

/* The same of fd's own inode, a symbolic link's too (an O_PATH fd). */
int64_t rg_birth_ns_fd(int fd, uint64_t dev, uint64_t ino);

#endif
