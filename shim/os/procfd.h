/* Whether a process holds a file open, from /proc/PID/fd, and the path a
 * descriptor names. Shared by the shim and `readguard check`. */
#ifndef RG_PROCFD_H
#define RG_PROCFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/table.h"

/* Does process pid have (dev, ino) open for writing right now? A writer
 * count can go stale (a process killed, or exec'd, while holding a
 * descriptor), and a stale count must never hide an external change; so
 * the count is only believed while its last writer still holds the file
 * for writing (one it only reads from could not be the writer at work).
 * Costs a directory scan, but only for a write that would otherwise be
 * refused. skip (or -1): a descriptor of pid's not to count, the one this
 * process opened to judge: it holds the file for writing, but only to ask
 * whether it may. */
bool rg_pid_holds(int32_t pid, uint64_t dev, uint64_t ino, int skip);

/* Does this process's descriptor 0, 1 or 2 write (dev, ino)? Such a
 * descriptor (`readguard run -- CMD >> f`) was opened before the session,
 * so its writes pass no hook: a file it writes that loses its last name
 * must be kept by a copy, as a link would keep the output written after.
 * Three fstat calls (and F_GETFL of one that is the file), made only
 * before a journal link. */
bool rg_std_writes(uint64_t dev, uint64_t ino);

/* Adds to h's list of outputs (core/outputs.h) every regular file this
 * process has open for writing: called by a process handing its
 * descriptors to a session's tree, as it makes or joins the session. Every
 * descriptor, from /proc/self/fd, else 0-2; once per launch, off the hot
 * path. */
void rg_outputs_note(struct rg_header *h);

/* The path /proc/self/fd/FD names, in out (cap bytes, NUL-terminated): its
 * length, or -1 when it names none starting with '/' (a pipe, a socket, no
 * /proc). A length of cap - 1 may be a path cut off. */
long rg_fd_path(int fd, char *out, size_t cap);

#endif
