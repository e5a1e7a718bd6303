#include "core/tablebind.h"

/* FNV-1a: the hash only tells one path from another in the user's own
 * environment, it is no secret and no defence. */
static uint64_t path_hash(const char *path)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h;
}

static char *put_hex(char *o, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    for (int shift = 60; shift >= 0; shift -= 4)
        *o++ = digits[(v >> shift) & 0xf];
    return o;
}

void rg_tablebind_format(char out[RG_TABLEBIND_MAX], const char *path, uint64_t dev, uint64_t ino)
{
    char *o = put_hex(out, dev);
    *o++ = ':';
    o = put_hex(o, ino);
    *o++ = ':';
    o = put_hex(o, path_hash(path));
    *o = '\0';
}

/* Reads exactly 16 hex digits and the byte end after them. */
static const char *get_hex(const char *s, uint64_t *v, char end)
{
    *v = 0;
    for (int i = 0; i < 16; i++, s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else
            return NULL;
        *v = *v << 4 | d;
    }
    return *s == end ? s + 1 : NULL;
}

enum rg_tablebind rg_tablebind_check(const char *binding, const char *path, uint64_t dev,
                                     uint64_t ino)
{
    uint64_t bdev, bino, bhash;
    const char *s = binding;
    if (!s || !(s = get_hex(s, &bdev, ':')) || !(s = get_hex(s, &bino, ':')) ||
        !get_hex(s, &bhash, '\0') || bhash != path_hash(path))
        return RG_BIND_NONE;
    return bdev == dev && bino == ino ? RG_BIND_MATCH : RG_BIND_MISMATCH;
}
