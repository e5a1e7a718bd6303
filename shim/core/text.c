#include "core/text.h"
#include <string.h>

/* Length of the well-formed UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, min = 0x10000;
    else
        return 0;
    unsigned cp = c & (0x3f >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static const char hex[] = "0123456789abcdef";

/* Per byte: PLAIN where rg_json_escape copies it as it is (printable
 * ASCII but '"' and '\\'), PLAIN_BYTES where rg_json_escape_bytes does
 * (the same but '%'). A table, not five comparisons: a journal record
 * escapes a path for every file git checkout replaces. */
enum { PLAIN = 1, PLAIN_BYTES = 2 };
static const unsigned char plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    3, 3, 0, 3, 3, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* How many bytes at s need no escape: most of a path, copied a run at a
 * time. */
static size_t plain_run(const unsigned char *s, bool keep_bytes)
{
    unsigned mask = keep_bytes ? PLAIN_BYTES : PLAIN;
    size_t run = 0;
    while (plain[s[run]] & mask)
        run++;
    return run;
}

/* The text for the character at s: in esc, or *piece pointing into s.
 * *n receives how many bytes of s it stands for; returns its length. */
static size_t escape_one(const unsigned char *s, bool keep_bytes, char esc[8], const char **piece,
                         size_t *n)
{
    *piece = esc;
    *n = utf8_len(s);
    if (*n == 0 || (keep_bytes && *s == '%')) {
        *n = 1;
        if (!keep_bytes)
            return *piece = "\\ufffd", 6;
        esc[0] = '%', esc[1] = hex[*s >> 4], esc[2] = hex[*s & 15];
        return 3;
    }
    if (*s == '"' || *s == '\\')
        return esc[0] = '\\', esc[1] = (char)*s, 2;
    if (*s == '\n')
        return *piece = "\\n", 2;
    if (*s == '\t')
        return *piece = "\\t", 2;
    if (*s < 0x20 || *s == 0x7f) {
        /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): bytes, not a string */
        memcpy(esc, "\\u00", 4);
        esc[4] = hex[*s >> 4], esc[5] = hex[*s & 15];
        return 6;
    }
    *piece = (const char *)s;
    return *n;
}

/* rg_json_escape, or with keep_bytes rg_json_escape_bytes. True when all
 * of src fit. *utf8 (optional) is cleared at a byte that is not UTF-8. */
static bool escape(char *dst, size_t cap, const char *src, bool keep_bytes, size_t *len, bool *utf8)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    *len = 0;
    if (cap == 0)
        return !*s;
    while (*s) {
        size_t run = plain_run(s, keep_bytes);
        if (run) {
            size_t fits = o + run + 1 > cap ? cap - o - 1 : run;
            memcpy(dst + o, s, fits);
            o += fits, s += fits;
            if (fits < run)
                break;
            continue;
        }
        char esc[8];
        const char *piece;
        size_t n, plen = escape_one(s, keep_bytes, esc, &piece, &n);
        if (utf8 && *s >= 0x80 && n == 1) /* a sequence is 2 to 4 bytes */
            *utf8 = false;
        if (o + plen + 1 > cap)
            break;
        memcpy(dst + o, piece, plen);
        o += plen;
        s += n;
    }
    dst[o] = '\0';
    *len = o;
    return !*s;
}

size_t rg_json_escape(char *dst, size_t cap, const char *src)
{
    size_t len;
    escape(dst, cap, src, false, &len, NULL);
    return len;
}

bool rg_json_escape_utf8(char *dst, size_t cap, const char *src, size_t *len)
{
    bool utf8 = true;
    return escape(dst, cap, src, false, len, &utf8) && utf8;
}

size_t rg_json_escape_bytes(char *dst, size_t cap, const char *src)
{
    size_t len;
    return escape(dst, cap, src, true, &len, NULL) ? len : SIZE_MAX;
}

bool rg_utf8_valid(const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    /* Nearly every path is ASCII: a byte below 0x80 needs no decoding. */
    for (size_t n; *s; s += n)
        if (*s < 0x80)
            n = 1;
        else if ((n = utf8_len(s)) == 0)
            return false;
    return true;
}

static int hex_digit(char c)
{
    const char *d = c ? strchr(hex, c) : NULL;
    return d ? (int)(d - hex) : -1;
}

bool rg_bytes_unescape(char *s)
{
    char *o = s;
    for (; *s; s++) {
        if (*s != '%') {
            *o++ = *s;
            continue;
        }
        int hi = hex_digit(s[1]), lo = hi < 0 ? -1 : hex_digit(s[2]);
        if (lo < 0 || (hi | lo) == 0)
            return false; /* not %XX, or a NUL byte no path holds */
        *o++ = (char)(hi << 4 | lo);
        s += 2;
    }
    *o = '\0';
    return true;
}

size_t rg_line_escape(char *dst, size_t cap, const char *src)
{
    size_t o = 0;
    if (cap == 0)
        return 0;
    for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
        char esc[4] = {'\\', (char)*s};
        size_t len = 1;
        if (*s == '\n' || *s == '\t')
            esc[1] = *s == '\n' ? 'n' : 't', len = 2;
        else if (*s < 0x20 || *s == 0x7f)
            esc[1] = 'x', esc[2] = hex[*s >> 4], esc[3] = hex[*s & 15], len = 4;
        if (o + len + 1 > cap)
            break;
        memcpy(dst + o, len == 1 ? (const char *)s : esc, len);
        o += len;
    }
    dst[o] = '\0';
    return o;
}

/* Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm): no
 * localtime, so no locks and no time zone file opened inside a hook. */
static void civil(int64_t days, int *y, unsigned *m, unsigned *d)
{
    days += 719468;
    int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    unsigned doe = (unsigned)(days - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

const char rg_digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                 "25262728293031323334353637383940414243444546474849"
                                 "50515253545556575859606162636465666768697071727374"
                                 "75767778798081828384858687888990919293949596979899";

/* v (below 100) as two digits. */
static char *pair(char *p, unsigned v)
{
    memcpy(p, rg_digit_pairs + 2 * (size_t)v, 2);
    return p + 2;
}

void rg_format_time(int64_t ns, char *buf)
{
    int64_t sec = ns / 1000000000, frac = ns % 1000000000;
    if (frac < 0)
        frac += 1000000000, sec--;
    int64_t days = sec / 86400, rem = sec % 86400;
    if (rem < 0)
        rem += 86400, days--;
    int y;
    unsigned m, d;
    civil(days, &y, &m, &d);
    if (y < 0 || y > 9999) {
        memcpy(buf, "0000-00-00T00:00:00.000000000Z", 31);
        return;
    }
    /* Two digits a step: a journal record has a time for every file git
     * checkout replaces, and a digit a step was most of its cost. */
    unsigned yy = (unsigned)y, r = (unsigned)rem, f = (unsigned)frac;
    char *p = buf;
    p = pair(pair(p, yy / 100), yy % 100), *p++ = '-';
    p = pair(p, m), *p++ = '-';
    p = pair(p, d), *p++ = 'T';
    p = pair(p, r / 3600), *p++ = ':';
    p = pair(p, r / 60 % 60), *p++ = ':';
    p = pair(p, r % 60), *p++ = '.';
    *p++ = (char)('0' + f / 100000000);
    f %= 100000000;
    p = pair(pair(p, f / 1000000), f / 10000 % 100);
    p = pair(pair(p, f / 100 % 100), f % 100), *p++ = 'Z';
    *p = '\0';
}

bool rg_concat_list(char *out, size_t cap, const char *const *parts)
{
    size_t o = 0;
    bool fits = cap > 0;
    for (; fits && *parts; parts++) {
        size_t n = strlen(*parts);
        fits = o + n < cap;
        if (fits)
            memcpy(out + o, *parts, n), o += n;
    }
    if (cap)
        out[fits ? o : 0] = '\0';
    return fits;
}

void rg_fd_link(char out[RG_FD_LINK_MAX], int fd)
{
    char d[16], *p = d + sizeof d;
    unsigned v = fd < 0 ? 0u - (unsigned)fd : (unsigned)fd;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    if (fd < 0)
        *--p = '-';
    memcpy(out, "/proc/self/fd/", 14);
    memcpy(out + 14, p, (size_t)(d + sizeof d - p));
    out[14 + (d + sizeof d - p)] = '\0';
}

bool rg_path_join(char *out, size_t cap, const char *base, const char *path)
{
    size_t o = 1;
    if (cap < 2)
        return false;
    out[0] = '/';
    for (int pass = path[0] == '/'; pass < 2; pass++) {
        for (const char *s = pass == 0 ? base : path; *s;) {
            while (*s == '/')
                s++;
            const char *e = strchrnul(s, '/');
            size_t n = (size_t)(e - s);
            if (n == 2 && s[0] == '.' && s[1] == '.') {
                while (o > 1 && out[o - 1] != '/')
                    o--;
                if (o > 1)
                    o--;
            } else if (n > 0 && !(n == 1 && s[0] == '.')) {
                size_t sep = o > 1;
                if (o + sep + n + 1 > cap)
                    return false;
                if (sep)
                    out[o++] = '/';
                memcpy(out + o, s, n);
                o += n;
            }
            s = e;
        }
    }
    out[o] = '\0';
    return true;
}

bool rg_path_under(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return path[0] == '/';
    return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}
