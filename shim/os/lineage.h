/* Process ancestry, from /proc: does a writer descend from the process that
 * scanned the file it writes? Only a write that would otherwise be refused
 * asks, so the cost (a read of /proc/PID/stat per generation) stays off the
 * common path. */
#ifndef RG_LINEAGE_H
#define RG_LINEAGE_H

#include <stdbool.h>
#include <stdint.h>

/* Is pid ancestor itself, or one of its descendants still linked to it? A
 * child whose ancestor has exited was handed to a reaper, so its line no
 * longer reaches it: false, the safe answer. */
bool rg_descends(int32_t pid, int32_t ancestor);

#endif
