/* SHA-256's block function on the processor's own SHA instructions (x86-64
 * SHA-NI), beside the portable one in sha256.c. In a file of its own because
 * it is compiled for an instruction set the rest of the shim must not assume. */
#ifndef RG_SHA256_NI_H
#define RG_SHA256_NI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The round constants, written once for both block functions. */
extern const uint32_t rg_sha256_k[64];

/* Runs BLOCKS 64-byte blocks of P into H, or
 * returns false having touched nothing when the processor lacks the
 * instructions (or under valgrind, which hides them). */
bool rg_sha256_blocks_ni(uint32_t h[8], const uint8_t *p, size_t blocks);

/* The portable block function, so tests can hold the two against each other. */
void rg_sha256_blocks_portable(uint32_t h[8], const uint8_t *p, size_t blocks);

#endif
