/* Reading a file's bytes to hash them (core/content.h is the hash, and when
 * one is wanted), and recording a read with the hash it should keep. */
#ifndef RG_READHASH_H
#define RG_READHASH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/content.h"
#include "core/table.h"
/* Hashes the first RG_HASH_MAX bytes of the open file fd, which must have
 * size bytes; fd's offset is not moved. 0 when it cannot be read or its
 * size is not size (it is changing under us). */
uint32_t rg_content_hash(int fd, int64_t size);

/* The hash a read of the open file fd, stamped st, should record over r:
 * 0 when none is wanted (a large file, not racy) or r already holds the
 * bytes of this very stamp and nothing can have changed them unseen. So an
 * unchanged file is hashed once per session, not once per read. */
uint32_t rg_read_hash(const struct rg_record *r, const struct rg_stamp *st, int fd, int64_t now_ns);

/* rg_stamp_read's own work when the record is not simply held already. */
bool rg_stamp_read_anew(const struct rg_table *t, struct rg_entry *e, struct rg_stamp *st, int fd);

/* Records in e a read of the open file fd, stamped st, with the hash
 * rg_read_hash() says it should keep. The re-read of an unchanged file
 * whose record wants no new hash reads no clock and stores nothing.
 * Returns whether e changed. */
static inline bool rg_stamp_read(const struct rg_table *t, struct rg_entry *e, struct rg_stamp *st,
                                 int fd)
{
    /* A scanner's re-read too: the caller offers the entry on
     * (rg_entry_reread, which gives it only to a read of the stamp it
     * holds) whatever this returns. Inline: most reads end here. */
    if (rg_entry_unchanged(t, e, st)) {
        struct rg_record held = {
            .found = true,
            .mtime_ns = st->mtime_ns,
            .ctime_ns = st->ctime_ns,
            .size = st->size,
            .read_ns = atomic_load_explicit(&e->read_ns, memory_order_relaxed),
            .hash = rg_hash_of(atomic_load_explicit(&e->hash_stamps, memory_order_relaxed))};
        if (!rg_record_wants_hash(&held))
            return false;
    }
    return rg_stamp_read_anew(t, e, st, fd);
}

#endif
