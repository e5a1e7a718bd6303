/* Which process has a file open for writing, from /proc: undo leaves the
 * file it replaced where such a process's later writes can still be found. */
#ifndef RG_WRITERS_H
#define RG_WRITERS_H

#include <stdint.h>

/* A process other than this one with the regular file open as fd (read
 * only) open for writing: its pid, among those /proc lets this user see; -1
 * when one has it (a process of another user, a writable shared map) but
 * none can be named; 0 if none. Asked of the kernel first (a read lease);
 * the scan of every process's descriptors, for the CLI, never the shim,
 * only when it says yes or cannot say. */
int32_t rg_writer_of(int fd);

#endif
