#include "core/content.h"
uint32_t rg_hash_finish(uint64_t h, const unsigned char *tail, size_t len)
{
    uint64_t w = 0;
    memcpy(&w, tail, len);
    h = rg_hash_mix(h, w ^ ((uint64_t)len << 59));
    /* Final avalanche (murmur3's fmix64), folded to 32 bits. */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    uint32_t r = (uint32_t)(h ^ (h >> 32));
    return r ? r : 1;
}

uint32_t rg_hash_bytes(const void *buf, size_t len, int64_t size)
{
    const unsigned char *p = buf;
    size_t whole = len & ~(size_t)7;
    return rg_hash_finish(rg_hash_words(rg_hash_start(size), p, whole), p + whole, len - whole);
}
