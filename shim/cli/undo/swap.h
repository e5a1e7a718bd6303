/* Putting a restored version in place without losing a write that lands
 * on the file between undo's keep of its content and the restore. The
 * restored bytes are exchanged with the file (RENAME_EXCHANGE), so the
 * inode they displace stays at the temporary name, out of reach of any
 * writer by path, and can be looked at: if it is not the file undo kept,
 * a write landed in between, and its bytes are kept in the journal as a
 * session of their own, the newest, so a plain `readguard undo FILE`
 * brings them back; a symbolic link put in its place is kept so too. A
 * process that still has it open for writing could write to it after that
 * look: then it stays at the temporary name. */
#ifndef RG_JSWAP_H
#define RG_JSWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/journal/store.h"
#include "cli/undo/spot.h"

/* What the restore displaced, once the restored version is in place. */
struct rg_jswap {
    bool caught;    /* a write landed: not the file kept */
    bool link;      /* caught, as a symbolic link put in its place */
    int unkept;     /* errno: the journal could not keep what it left */
    bool left;      /* what was displaced is at tmp (unkept, or a writer) */
    int32_t writer; /* a process that still had it open for writing (-1:
                       one that cannot be named) */
};

/* Moves the restored file s->tmp to s->name, the file abs, in journal
 * dir; kept is what undo kept of abs. 0, with out filled, or -errno when
 * abs was left as it was (s->tmp then still there). */
int rg_jswap_restore(const char *dir, const struct rg_jspot *s, const char *abs,
                     const struct rg_jkept *kept, struct rg_jswap *out);

#endif
