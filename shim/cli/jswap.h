/* Putting a restored version in place without losing a write that lands
 * on the file between undo's keep of its content and the restore. The
 * restored bytes are exchanged with the file (RENAME_EXCHANGE), so the
 * inode they displace stays at the temporary name, out of reach of any
 * writer by path, and can be looked at: if it is not the file undo kept,
 * a write landed in between, and its bytes are kept in the journal as a
 * session of their own, the newest, so a plain `readguard undo FILE`
 * brings them back. */
#ifndef RG_JSWAP_H
#define RG_JSWAP_H

#include "cli/jstore.h"

enum rg_jswap_result {
    RG_JSWAP_RESTORED = 0, /* in place; what it displaced was the file kept */
    RG_JSWAP_CAUGHT = 1,   /* in place; a write landed, its bytes are kept */
    RG_JSWAP_LEFT = 2,     /* in place; a write landed, its bytes could not be
                              kept (errno) and are left at tmp */
    RG_JSWAP_DROPPED = 3,  /* in place; a write landed, its bytes could not be
                              kept (errno), nor copied to tmp after a rename */
};

/* Moves the restored file tmp to abs, in journal dir; kept is what undo
 * kept of abs. Returns an rg_jswap_result,
 * or -errno when abs was left as it was (tmp then still there). */
int rg_jswap_restore(const char *dir, const char *tmp, const char *abs,
                     const struct rg_jkept *kept);

#endif
