#include "core/content.h"

#include <string.h>
#include <unistd.h>

#include "os/session.h"
#include "core/table.h"

bool rg_stamp_racy(int64_t mtime_ns, int64_t read_ns)
{
    return read_ns - mtime_ns < RG_TICK_NS;
}

bool rg_hash_wanted(int64_t size, int64_t mtime_ns, int64_t now_ns)
{
    return size <= RG_HASH_MAX || rg_stamp_racy(mtime_ns, now_ns);
}

static uint64_t mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* Whole words only until the last piece, so hashing in chunks that are
 * multiples of 8 gives what hashing the whole buffer gives. */
static uint64_t hash_words(uint64_t h, const unsigned char *p, size_t len)
{
    uint64_t w;
    for (; len >= 8; p += 8, len -= 8) {
        memcpy(&w, p, 8);
        h = mix(h, w);
    }
    return h;
}

static uint32_t hash_finish(uint64_t h, const unsigned char *tail, size_t len)
{
    uint64_t w = 0;
    memcpy(&w, tail, len);
    h = mix(h, w ^ ((uint64_t)len << 59));
    /* Final avalanche (murmur3's fmix64), folded to 32 bits. */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    uint32_t r = (uint32_t)(h ^ (h >> 32));
    return r ? r : 1;
}

static uint64_t hash_start(int64_t size)
{
    return mix(0x6a09e667f3bcc909ull, (uint64_t)size);
}

uint32_t rg_hash_bytes(const void *buf, size_t len, int64_t size)
{
    const unsigned char *p = buf;
    size_t whole = len & ~(size_t)7;
    return hash_finish(hash_words(hash_start(size), p, whole), p + whole, len - whole);
}

uint32_t rg_content_hash(int fd, int64_t size)
{
    /* Small chunks: hooks run on threads with small stacks. */
    unsigned char buf[8192];
    int64_t want = size < RG_HASH_MAX ? size : RG_HASH_MAX, off = 0;
    uint64_t h = hash_start(size);
    for (;;) {
        size_t n = (size_t)(want - off < (int64_t)sizeof buf ? want - off : (int64_t)sizeof buf);
        ssize_t got = n ? pread(fd, buf, n, off) : 0;
        if (got != (ssize_t)n)
            return 0; /* unreadable, or shorter than its size said */
        off += got;
        if (off == want) {
            size_t whole = n & ~(size_t)7;
            return hash_finish(hash_words(h, buf, whole), buf + whole, n - whole);
        }
        h = hash_words(h, buf, n);
    }
}

bool rg_record_wants_hash(const struct rg_record *r)
{
    return r->hash ? rg_stamp_racy(r->mtime_ns, r->read_ns) : r->size <= RG_HASH_MAX;
}

uint32_t rg_read_hash(const struct rg_record *r, const struct rg_stamp *st, int fd,
                      int64_t now_ns)
{
    bool known = r->found && r->mtime_ns == st->mtime_ns && r->size == st->size &&
                 r->ctime_ns == st->ctime_ns;
    if (known ? !rg_record_wants_hash(r) : !rg_hash_wanted(st->size, st->mtime_ns, now_ns))
        return 0;
    return rg_content_hash(fd, st->size);
}

bool rg_stamp_read(const struct rg_table *t, struct rg_entry *e, struct rg_stamp *st, int fd)
{
    if (rg_entry_holds(t, e, st)) {
        struct rg_record held = {
            .found = true, .mtime_ns = st->mtime_ns, .ctime_ns = st->ctime_ns, .size = st->size,
            .read_ns = atomic_load_explicit(&e->read_ns, memory_order_relaxed),
            .hash = atomic_load_explicit(&e->hash, memory_order_relaxed)};
        if (!rg_record_wants_hash(&held))
            return false;
    }
    int64_t now_ns = rg_now_ns();
    struct rg_record rec = rg_entry_load(t, e);
    st->hash = rg_read_hash(&rec, st, fd, now_ns);
    return rg_entry_stamp(t, e, st, false, now_ns);
}
