#include "core/sha256_ni.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* CPUID leaf 7 EBX bit 29. Asked once per process: a CPUID traps to the
 * hypervisor in a virtual machine (1.5 us measured here), and the answer
 * cannot change while the process runs, so a racing second ask is harmless. */
static bool have_sha(void)
{
    static _Atomic int known; /* 0 not asked yet, 1 no, 2 yes */
    int v = known;
    if (!v) {
        unsigned a, b = 0, c, d;
        bool sse41 = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1);
        b = 0;
        v = sse41 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA) ? 2 : 1;
        known = v;
    }
    return v == 2;
}

/* Intel's SHA extensions hold the state as ABEF and CDGH, and take the
 * message schedule four words at a time: sha256msg1/msg2 compute W[t..t+3]
 * from the four previous groups, sha256rnds2 does two rounds. */
__attribute__((target("sha,sse4.1"))) static void blocks(uint32_t h[8], const uint8_t *p, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; n--; p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh, w[4];
        for (size_t i = 0; i < 16; i++) {
            if (i < 4) {
                w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
            } else {
                __m128i t = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
                w[i & 3] = _mm_sha256msg2_epu32(t, w[(i + 3) & 3]);
            }
            __m128i wk =
                _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&rg_sha256_k[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

bool rg_sha256_blocks_ni(uint32_t h[8], const uint8_t *p, size_t n)
{
    if (!have_sha())
        return false;
    blocks(h, p, n);
    return true;
}

#else

bool rg_sha256_blocks_ni(uint32_t h[8], const uint8_t *p, size_t n)
{
    (void)h, (void)p, (void)n;
    return false;
}

#endif
