/* The files a session's launchers hand its tree to write: `readguard run
 * -- CMD >> f`, a preloaded program started with its output on f. Such a
 * descriptor was opened before the session, so its writes pass no hook;
 * every process of the session reads this list from the table's header,
 * so that a file on it that loses its last name is kept by a copy: a link
 * would keep the output written after as the old bytes (guard/journal/keep.c).
 *
 * A slot holds a hash of device and inode, so two files may share one: a
 * false match only costs a copy where a link would do, never a loss, and
 * neither does a list that overflowed, which matches every file. */
#ifndef RG_OUTPUTS_H
#define RG_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/table.h"

/* Adds (dev, ino) to h's list, once: lock-free, as launchers joining a
 * session may add at once. */
void rg_outputs_add(struct rg_header *h, uint64_t dev, uint64_t ino);

/* Is (dev, ino) on h's list, or did the list overflow? */
bool rg_outputs_has(const struct rg_header *h, uint64_t dev, uint64_t ino);

#endif
