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
 * Fast, not cryptographic: 16 bytes per 64x64->128-bit multiply, in four
 * independent lanes (the multiplies overlap): about 0.5 instructions a byte
 * on x86-64, where an 8-byte multiply-xor chain took 0.75, and a first read
 * of a small file pays for every byte. Not keyed: its constants are public,
 * so it guards against accidents, not against a chooser of both the bytes
 * read and the bytes written over them (who could write the file anyway). */
uint32_t rg_hash_bytes(const void *buf, size_t len, int64_t size);

/* The same hash a piece at a time, for a reader of the bytes in chunks:
 * rg_hash_start from the size, feed whole blocks (any multiple of
 * RG_HASH_BLOCK bytes per call gives what one call over the whole would),
 * and rg_hash_finish with the rest, of any length. */
#define RG_HASH_BLOCK 64u
#define RG_HASH_LANES 4u

struct rg_hasher {
    uint64_t lane[RG_HASH_LANES];
};

/* The 128-bit product from 32-bit halves, folded, for compilers without a
 * 128-bit type (32-bit targets); tested against the one below. */
static inline uint64_t rg_hash_fold_halves(uint64_t a, uint64_t b)
{
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    uint64_t lo = (mid << 32) | (uint32_t)ll;
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return lo ^ hi;
}

/* The product's two halves folded: every bit of both factors reaches the
 * middle bits of the result. */
static inline uint64_t rg_hash_fold(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 rg_u128;
    rg_u128 m = (rg_u128)a * b;
    return (uint64_t)m ^ (uint64_t)(m >> 64);
#else
    return rg_hash_fold_halves(a, b);
#endif
}

/* One lane takes 16 bytes. The lane's state enters both factors, so no
 * fixed word zeroes a factor (and with it all the lane has taken before):
 * only a word equal to the running state does, a 1 in 2^64 accident. Adding
 * it on one side and xoring it on the other keeps the product from being
 * symmetric in the two words; the constant keeps the two sides apart where
 * the add makes no carry: without it, a bit flipped in either word gives
 * the same product, and inputs of a few set bits collide thousands of
 * times more often than chance (the unit tests count them). */
static inline uint64_t rg_hash_lane(uint64_t s, uint64_t w0, uint64_t w1)
{
    return rg_hash_fold(w0 ^ s, (w1 ^ 0xa0761d6478bd642full) + s);
}

static inline uint64_t rg_hash_load(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline void rg_hash_start(struct rg_hasher *h, int64_t size)
{
    uint64_t z = (uint64_t)size;
    h->lane[0] = z ^ 0x243f6a8885a308d3ull;
    h->lane[1] = z ^ 0x13198a2e03707344ull;
    h->lane[2] = z ^ 0xa4093822299f31d0ull;
    h->lane[3] = z ^ 0x082efa98ec4e6c89ull;
}

/* len a multiple of RG_HASH_BLOCK. The lanes live in locals for the loop:
 * stores through h could alias the bytes, which would force reloads. */
static inline void rg_hash_blocks(struct rg_hasher *h, const unsigned char *p, size_t len)
{
    uint64_t a = h->lane[0], b = h->lane[1], c = h->lane[2], d = h->lane[3];
    for (; len >= RG_HASH_BLOCK; p += RG_HASH_BLOCK, len -= RG_HASH_BLOCK) {
        a = rg_hash_lane(a, rg_hash_load(p), rg_hash_load(p + 8));
        b = rg_hash_lane(b, rg_hash_load(p + 16), rg_hash_load(p + 24));
        c = rg_hash_lane(c, rg_hash_load(p + 32), rg_hash_load(p + 40));
        d = rg_hash_lane(d, rg_hash_load(p + 48), rg_hash_load(p + 56));
    }
    h->lane[0] = a;
    h->lane[1] = b;
    h->lane[2] = c;
    h->lane[3] = d;
}

/* The last len bytes (whole blocks too), then the lanes folded into one.
 * The tail's length counts in the result, so trailing zero bytes differ
 * from none.
 * Never 0. */
uint32_t rg_hash_finish(struct rg_hasher *h, const unsigned char *p, size_t len);

#endif
