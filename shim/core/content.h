/* Content hashes: what lets a decision look past timestamps. A file changed
 * within the timestamp tick of the session's read can keep its mtime and
 * size (git calls such an index entry "racily clean"); a file touched or
 * rewritten with the same bytes moves its mtime but loses nothing. Both are
 * told apart by a hash of the bytes, taken at the read only when it can
 * matter, and again at the write only when the decision asks for it.
 *
 * This is the pure half: when a hash is wanted, and the hash itself. Reading
 * a file's bytes to hash them is guard/readhash.h. */
#ifndef RG_CONTENT_H
#define RG_CONTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/table.h"
/* Bytes hashed from the start of a file. A file no larger is hashed whole;
 * a larger one only in its first RG_HASH_MAX bytes (plus its size). */
#define RG_HASH_MAX 65536

/* The predicates are inline: the re-read of an unchanged file, the hottest
 * path of all, asks rg_record_wants_hash() on every read. */

/* A record is racy when the file was modified less than a tick before the
 * read: a change in that same tick could leave mtime and size as recorded. */
static inline bool rg_stamp_racy(int64_t mtime_ns, int64_t read_ns)
{
    return read_ns - mtime_ns < RG_TICK_NS;
}

/* Does a read of a file like this take a hash? Whole small files always
 * (so that a moved mtime over the same bytes is recognised), larger ones
 * only when racy. */
static inline bool rg_hash_wanted(int64_t size, int64_t mtime_ns, int64_t now_ns)
{
    return size <= RG_HASH_MAX || rg_stamp_racy(mtime_ns, now_ns);
}

/* Does a record of the very stamp a read sees need the bytes hashed
 * (again)? When it has no hash though it wants one, or its hash was taken
 * racily: the bytes may have changed under the same stamp. No clock needed,
 * so the re-read of an unchanged file stays cheap. */
static inline bool rg_record_wants_hash(const struct rg_record *r)
{
    return r->hash ? rg_stamp_racy(r->mtime_ns, r->read_ns) : r->size <= RG_HASH_MAX;
}

/* The hash of len bytes and the file's size; never 0, which means "none".
 * Word at a time: a fast, seeded multiply-xor chain, not cryptographic. */
uint32_t rg_hash_bytes(const void *buf, size_t len, int64_t size);

/* The same hash a piece at a time, for a reader of the bytes in chunks:
 * start from the size, feed whole words (any multiple of 8 bytes per call
 * gives what one call over the whole would), and finish with the rest. */
static inline uint64_t rg_hash_mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static inline uint64_t rg_hash_start(int64_t size)
{
    return rg_hash_mix(0x6a09e667f3bcc909ull, (uint64_t)size);
}

static inline uint64_t rg_hash_word_at(uint64_t h, const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return rg_hash_mix(h, w);
}

/* Whole words only: a tail shorter than 8 bytes is left to rg_hash_finish.
 * Four words a turn, the same chain: the loop's own step, compare and branch
 * once per 32 bytes cut the instructions a first read of a small file pays
 * (most of grep -r's cost under the shim) by about a third. */
static inline uint64_t rg_hash_words(uint64_t h, const unsigned char *p, size_t len)
{
    for (; len >= 32; p += 32, len -= 32) {
        h = rg_hash_word_at(h, p);
        h = rg_hash_word_at(h, p + 8);
        h = rg_hash_word_at(h, p + 16);
        h = rg_hash_word_at(h, p + 24);
    }
    for (; len >= 8; p += 8, len -= 8)
        h = rg_hash_word_at(h, p);
    return h;
}

/* len < 8 bytes of tail. Never 0. */
uint32_t rg_hash_finish(uint64_t h, const unsigned char *tail, size_t len);

#endif
