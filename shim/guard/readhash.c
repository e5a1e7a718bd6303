#include "guard/readhash.h"
#include <errno.h>
#include <unistd.h>

#include "core/content.h"
#include "os/clock.h"
static uint32_t content_hash(int fd, int64_t size)
{
    /* Small chunks: hooks run on threads with small stacks. A whole number
     * of the hash's blocks, so that only the last chunk has a tail. */
    unsigned char buf[8192];
    _Static_assert(sizeof buf % RG_HASH_BLOCK == 0, "only the last chunk has a tail");
    int64_t want = size < RG_HASH_MAX ? size : RG_HASH_MAX, off = 0;
    struct rg_hasher h;
    rg_hash_start(&h, size);
    for (;;) {
        size_t n = (size_t)(want - off < (int64_t)sizeof buf ? want - off : (int64_t)sizeof buf);
        ssize_t got = n ? pread(fd, buf, n, off) : 0;
        if (got != (ssize_t)n)
            return 0; /* unreadable, or shorter than its size said */
        off += got;
        if (off == want)
            return rg_hash_finish(&h, buf, n);
        rg_hash_blocks(&h, buf, n);
    }
}

uint32_t rg_content_hash(int fd, int64_t size)
{
    int saved = errno; /* a failed pread's: a read's record keeps none (guard/calls.c) */
    uint32_t hash = content_hash(fd, size);
    errno = saved;
    return hash;
}

uint32_t rg_read_hash(const struct rg_record *r, const struct rg_stamp *st, int fd, int64_t now_ns)
{
    bool known = r->found && r->mtime_ns == st->mtime_ns && r->size == st->size &&
                 r->ctime_ns == st->ctime_ns;
    if (known ? !rg_record_wants_hash(r) : !rg_hash_wanted(st->size, st->mtime_ns, now_ns))
        return 0;
    return rg_content_hash(fd, st->size);
}

bool rg_stamp_read_anew(const struct rg_table *t, struct rg_entry *e, struct rg_stamp *st, int fd)
{
    int64_t now_ns = rg_now_ns();
    struct rg_record rec = rg_entry_load(t, e);
    st->hash = rg_read_hash(&rec, st, fd, now_ns);
    return rg_entry_stamp(t, e, st, false, now_ns);
}
