/* Content hashes: what lets a decision look past timestamps. A file changed
 * within the timestamp tick of the session's read can keep its mtime and
 * size (git calls such an index entry "racily clean"); a file touched or
 * rewritten with the same bytes moves its mtime but loses nothing. Both are
 * told apart by a hash of the bytes, taken at the read only when it can
 * matter, and again at the write only when the decision asks for it. */
#ifndef RG_CONTENT_H
#define RG_CONTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes hashed from the start of a file. A file no larger is hashed whole;
 * a larger one only in its first RG_HASH_MAX bytes (plus its size). */
#define RG_HASH_MAX 65536

/* A record is racy when the file was modified less than a tick before the
 * read: a change in that same tick could leave mtime and size as recorded. */
bool rg_stamp_racy(int64_t mtime_ns, int64_t read_ns);

/* Does a read of a file like this take a hash? Whole small files always
 * (so that a moved mtime over the same bytes is recognised), larger ones
 * only when racy. */
bool rg_hash_wanted(int64_t size, int64_t mtime_ns, int64_t now_ns);

/* The hash of len bytes and the file's size; never 0, which means "none".
 * Word at a time: a fast, seeded multiply-xor chain, not cryptographic. */
uint32_t rg_hash_bytes(const void *buf, size_t len, int64_t size);

/* Hashes the first RG_HASH_MAX bytes of the open file fd, which must have
 * size bytes; fd's offset is not moved. 0 when it cannot be read or its
 * size is not size (it is changing under us). */
uint32_t rg_content_hash(int fd, int64_t size);

struct rg_record;
struct rg_stamp;

/* Does a record of the very stamp a read sees need the bytes hashed
 * (again)? When it has no hash though it wants one, or its hash was taken
 * racily: the bytes may have changed under the same stamp. No clock needed,
 * so the re-read of an unchanged file stays cheap. */
bool rg_record_wants_hash(const struct rg_record *r);

/* The hash a read of the open file fd, stamped st, should record over r:
 * 0 when none is wanted (a large file, not racy) or r already holds the
 * bytes of this very stamp and nothing can have changed them unseen. So an
 * unchanged file is hashed once per session, not once per read. */
uint32_t rg_read_hash(const struct rg_record *r, const struct rg_stamp *st, int fd,
                      int64_t now_ns);

struct rg_table;
struct rg_entry;

/* Records in e a read of the open file fd, stamped st, with the hash
 * rg_read_hash() says it should keep. The re-read of an unchanged file
 * whose record wants no new hash reads no clock and stores nothing.
 * Returns whether e changed. */
bool rg_stamp_read(const struct rg_table *t, struct rg_entry *e, struct rg_stamp *st, int fd);

#endif
