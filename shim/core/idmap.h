/* User namespaces: the same user has another uid inside one (`unshare -Ur`
 * makes it 0). A session table records its creator's uid as the creator saw
 * it; a process of the session inside a namespace must translate its own to
 * compare. This is the pure half: reading a /proc/PID/uid_map text. */
#ifndef RG_IDMAP_H
#define RG_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

/* uid_map lines are "inside outside count": uid inside maps to outside in
 * the parent namespace. The uid that id (inside) is outside, if a line maps
 * it; false when none does, or text is not a uid map. */
bool rg_idmap_outside(const char *text, uint32_t id, uint32_t *outside);

#endif
