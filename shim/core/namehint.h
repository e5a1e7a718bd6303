/* Was a file refused as unread ever read under that name? The session
 * table is keyed by inode, so a file that another program replaced (an
 * editor's atomic save, mv, rm and create) reads as one never read, and the
 * refusal would say "not been read" of a file the session did read. A read
 * notes the name it came by (core/table.h, rg_table_name_note); only a
 * refusal as unread asks, and these decide what it then says. */
#ifndef RG_NAMEHINT_H
#define RG_NAMEHINT_H

#include <stdint.h>

#include "core/policy.h"
#include "core/table.h"
/* The key of a name, as a read or a refusal gives it ("./" in front makes
 * no other name). Never 0. */
uint64_t rg_name_key(const char *name);

/* What the session recorded under a name. */
struct rg_named {
    uint64_t dev, ino;
    struct rg_record rec; /* rec.found: read, and not forgotten since */
};

/* The reason for refusing `now`, found unread, whose name was last read as
 * `then` (NULL: no note). born_ns: when `now` came to be (statx birth
 * time), 0 where the file system does not say; its ctime, which a rename or
 * a creation sets, stands in. RG_WHY_REPLACED only on evidence: that name
 * was read as another file, and the file there now took it afterwards.
 * Anything else, a file never read in particular, stays RG_WHY_UNREAD. */
enum rg_reason rg_unread_reason(const struct rg_file *now, int64_t born_ns,
                                const struct rg_named *then);

#endif
