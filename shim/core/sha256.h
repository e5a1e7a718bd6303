/* SHA-256 (FIPS 180-4), the name of a journaled version. Content-addressed
 * objects need a hash no one can collide on purpose: two different files
 * stored under one name would make undo restore the wrong bytes. Pure and
 * allocation-free, so a hook can run it; no library is linked into the shim. */
#ifndef RG_SHA256_H
#define RG_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define RG_SHA256_LEN 32
#define RG_SHA256_HEX (2 * RG_SHA256_LEN + 1)

struct rg_sha256 {
    uint32_t h[8];
    uint64_t len; /* bytes fed so far */
    uint8_t block[64];
    size_t used; /* bytes waiting in block */
};

void rg_sha256_init(struct rg_sha256 *s);
void rg_sha256_update(struct rg_sha256 *s, const void *data, size_t n);
void rg_sha256_final(struct rg_sha256 *s, uint8_t out[RG_SHA256_LEN]);
/* Lower-case hex of a digest, NUL-ended. */
void rg_sha256_hex(const uint8_t d[RG_SHA256_LEN], char out[RG_SHA256_HEX]);

#endif
