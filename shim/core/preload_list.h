/* Walking an LD_PRELOAD list: entries separated by ':' or ' '. Inline byte
 * loops, because the callers run in every process before main() and on
 * every exec, where each libc function called for the first time is bound
 * again (some 700 instructions and a page fault of libc per process). */
#ifndef RG_PRELOAD_LIST_H
#define RG_PRELOAD_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/hot.h"

#define RG_SHIM_FILE "libreadguard.so"
/* musl's build lives in a directory musl/ beside glibc's, same file name. */
#define RG_SHIM_MUSL_TAIL "/musl/" RG_SHIM_FILE

static inline bool rg_plist_sep(char c) { return c == ':' || c == ' '; }

/* Does an entry stop at c: a separator or the end (NUL)? One comparison for
 * most bytes of a path (letters are above ':'), then one test of a bit:
 * every process walks its LD_PRELOAD a byte at a time before main(). */
static inline bool rg_plist_stop(char c)
{
    const unsigned long long stops = 1ULL | 1ULL << ' ' | 1ULL << ':';
    unsigned char u = (unsigned char)c;
    return u <= ':' && (stops >> u & 1);
}

/* The length of the entry at p, up to a separator or the end. */
static inline size_t rg_plist_entry_len(const char *p)
{
    size_t n = 0;
    while (!rg_plist_stop(p[n]))
        n++;
    return n;
}

/* The next entry after the separators at p. */
static inline const char *rg_plist_skip_seps(const char *p)
{
    while (rg_plist_sep(*p))
        p++;
    return p;
}

/* Eight bytes a step, the last eight overlapping the ones before: fixed
 * sizes, which the compiler compares as words and calls no memcmp for. */
static inline bool rg_plist_ends_with(const char *p, size_t len, const char *tail, size_t tlen)
{
    if (len < tlen)
        return false;
    const char *e = p + len - tlen;
    if (tlen < 8) {
        for (size_t i = 0; i < tlen; i++)
            if (e[i] != tail[i])
                return false;
        return true;
    }
    for (size_t i = 0; i + 8 < tlen; i += 8)
        if (__builtin_memcmp(e + i, tail + i, 8) != 0)
            return false;
    return __builtin_memcmp(e + tlen - 8, tail + tlen - 8, 8) == 0;
}

/* Does one entry (len bytes) name the shim? Any directory counts. */
static inline bool rg_plist_names_shim(const char *p, size_t len)
{
    RG_START_CONST static const char file[] = RG_SHIM_FILE;
    const size_t t = sizeof file - 1;
    return rg_plist_ends_with(p, len, file, t) && (len == t || p[len - t - 1] == '/');
}

/* Is an entry naming the shim musl's build? */
static inline bool rg_plist_is_musl(const char *p, size_t len)
{
    RG_START_CONST static const char tail[] = RG_SHIM_MUSL_TAIL;
    return rg_plist_ends_with(p, len, tail, sizeof tail - 1);
}

#endif
