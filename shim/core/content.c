#include "core/content.h"
uint32_t rg_hash_finish(struct rg_hasher *h, const unsigned char *p, size_t len)
{
    size_t whole = len & ~(size_t)(RG_HASH_BLOCK - 1), rest = len - whole, i = 0;
    /* The blocks' count is in the lanes (a block moves each, even a block
     * of zeros); the tail's length must be said, and only it: the same
     * bytes fed in other chunks give the same hash. */
    uint64_t tail_len = rest;
    rg_hash_blocks(h, p, whole);
    for (p += whole; rest >= 16; p += 16, rest -= 16, i++)
        h->lane[i] = rg_hash_lane(h->lane[i], rg_hash_load(p), rg_hash_load(p + 8));
    /* At most 15 bytes are left, zero-padded: byte 15 is always padding. */
    unsigned char last[16] = {0};
    memcpy(last, p, rest);
    h->lane[i] = rg_hash_lane(h->lane[i], rg_hash_load(last), rg_hash_load(last + 8));
    uint64_t x = rg_hash_fold(h->lane[0] ^ tail_len, h->lane[1] ^ 0xe7037ed1a0b428dbull);
    uint64_t y =
        rg_hash_fold(h->lane[2] ^ 0x8ebc6af09c88c6e3ull, h->lane[3] ^ 0x589965cc75374cc3ull);
    uint64_t z = rg_hash_fold(x ^ 0x1d8e4e27c47d124full, y + x);
    uint32_t r = (uint32_t)(z ^ (z >> 32));
    return r ? r : 1;
}

uint32_t rg_hash_bytes(const void *buf, size_t len, int64_t size)
{
    struct rg_hasher h;
    rg_hash_start(&h, size);
    return rg_hash_finish(&h, buf, len);
}
