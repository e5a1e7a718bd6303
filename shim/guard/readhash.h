/* Reading a file's bytes to hash them (core/content.h is the hash, and when
 * one is wanted), and recording a read with the hash it should keep. */
#ifndef RG_READHASH_H
#define RG_READHASH_H

#include <stdbool.h>
#include <stdint.h>

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

/* Records in e a read of the open file fd, stamped st, with the hash
 * rg_read_hash() says it should keep. The re-read of an unchanged file
 * whose record wants no new hash reads no clock and stores nothing.
 * Returns whether e changed. */
bool rg_stamp_read(const struct rg_table *t, struct rg_entry *e, struct rg_stamp *st, int fd);

#endif
