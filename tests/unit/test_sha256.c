/* Unit tests for sha256.c: the FIPS 180-4 / NIST CAVP example vectors, and
 * that feeding the bytes in any split gives the same digest. */
#include <stdlib.h>

#include "check.h"
#include "core/sha256.h"
#include "core/sha256_ni.h"
static const char *digest(const void *p, size_t n)
{
    static char hex[RG_SHA256_HEX];
    struct rg_sha256 s;
    uint8_t d[RG_SHA256_LEN];
    rg_sha256_init(&s);
    rg_sha256_update(&s, p, n);
    rg_sha256_final(&s, d);
    rg_sha256_hex(d, hex);
    return hex;
}

TEST(empty_input)
{
    CHECK_EQ_STR(digest("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(abc)
{
    CHECK_EQ_STR(digest("abc", 3),
                 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(two_block_message)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    CHECK_EQ_STR(digest(m, strlen(m)),
                 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* 55, 56 and 64 bytes sit on the padding's edges. */
TEST(padding_edges)
{
    char a[64];
    memset(a, 'a', sizeof a);
    CHECK_EQ_STR(digest(a, 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    CHECK_EQ_STR(digest(a, 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    CHECK_EQ_STR(digest(a, 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(million_a_in_odd_pieces)
{
    char *a = malloc(1000000);
    memset(a, 'a', 1000000);
    struct rg_sha256 s;
    uint8_t d[RG_SHA256_LEN];
    char hex[RG_SHA256_HEX];
    rg_sha256_init(&s);
    for (size_t off = 0, step = 1; off < 1000000; off += step, step = step * 3 % 1000 + 1)
        rg_sha256_update(&s, a + off, off + step > 1000000 ? 1000000 - off : step);
    rg_sha256_final(&s, d);
    rg_sha256_hex(d, hex);
    CHECK_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

/* The processor's block function against the portable one, state carried
 * from block to block; on a machine without SHA instructions (or under
 * valgrind) it must decline and leave the state alone. */
TEST(sha_instructions_agree_with_portable)
{
    uint8_t p[64 * 17];
    for (size_t i = 0; i < sizeof p; i++)
        p[i] = (uint8_t)(i * 167 + (i >> 5));
    for (size_t n = 1; n <= 17; n++) {
        uint32_t a[8] = {1, 2, 3, 4, 5, 6, 7, (uint32_t)n}, b[8];
        memcpy(b, a, sizeof a);
        if (!rg_sha256_blocks_ni(a, p, n)) {
            CHECK(memcmp(a, b, sizeof a) == 0);
            continue;
        }
        rg_sha256_blocks_portable(b, p, n);
        CHECK(memcmp(a, b, sizeof a) == 0);
    }
}

int main(void)
{
    RUN(empty_input);
    RUN(abc);
    RUN(two_block_message);
    RUN(padding_edges);
    RUN(million_a_in_odd_pieces);
    RUN(sha_instructions_agree_with_portable);
    return check_done();
}
