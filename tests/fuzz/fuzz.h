/* Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c). Each harness
 * defines LLVMFuzzerTestOneInput and checks properties of the code under
 * test with FUZZ_CHECK: a broken property aborts, which libFuzzer reports as
 * a crash and the gcc replay driver (replay.c) as a failed test. */
#ifndef RG_FUZZ_H
#define RG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "fuzz: %s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* Copies up to cap-1 bytes of the input, up to its first NUL, into a
 * NUL-terminated string, and advances the input past them (and the NUL).
 * The code under test takes C strings, so the harness feeds it strings. */
static inline const char *fuzz_take_string(const uint8_t **data, size_t *size, char *buf,
                                           size_t cap)
{
    size_t n = 0;
    while (n < *size && n + 1 < cap && (*data)[n] != 0)
        n++;
    memcpy(buf, *data, n);
    buf[n] = '\0';
    size_t used = n < *size ? n + 1 : n;
    *data += used;
    *size -= used;
    return buf;
}

#endif
