#include "core/jrecord.h"
#include <stdint.h>
#include <string.h>

#include "core/sha256.h"
#include "core/text.h"
/* A line being built; o->p is NULL once something did not fit. */
struct line {
    char *p, *end;
};

static void put(struct line *o, const char *s, size_t n)
{
    if (o->p && n < (size_t)(o->end - o->p)) {
        memcpy(o->p, s, n);
        o->p += n;
    } else {
        o->p = NULL;
    }
}

static void put_s(struct line *o, const char *s) { put(o, s, strlen(s)); }

/* c (below 10^8) as eight digits ending at p; returns where they start.
 * Eight a step: one 64-bit division per eight digits, not per two, as a
 * record holds four 19-digit times. */
static char *eight(char *p, uint32_t c)
{
    uint32_t hi = c / 10000, lo = c % 10000;
    p -= 8;
    memcpy(p, rg_digit_pairs + 2 * (size_t)(hi / 100), 2);
    memcpy(p + 2, rg_digit_pairs + 2 * (size_t)(hi % 100), 2);
    memcpy(p + 4, rg_digit_pairs + 2 * (size_t)(lo / 100), 2);
    memcpy(p + 6, rg_digit_pairs + 2 * (size_t)(lo % 100), 2);
    return p;
}

/* How many digits v has in decimal: from its bit length, then one
 * compare, not a division per digit. */
static unsigned digits(unsigned long long v)
{
    /* clang-format off */
    static const unsigned long long pow10[20] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};
    /* clang-format on */
    /* v | 1 has as many digits as v (an even v's next number is never a
     * power of ten but 1, as one digit as 0), and a bit for clz to find;
     * 1233 / 4096 is just below log10(2). */
    unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1), t = bits * 1233 >> 12;
    return t + ((v | 1) >= pow10[t]);
}

/* v in decimal, zero-padded to width digits. Its length is known first,
 * so the digits go straight into the line, back to front: a record has a
 * dozen numbers, and staging each in a buffer of its own cost as much as
 * making its digits. */
static void put_u(struct line *o, unsigned long long v, int width)
{
    size_t n = digits(v);
    if (width > 0 && (size_t)width > n)
        n = (size_t)width;
    if (!o->p || n >= (size_t)(o->end - o->p)) {
        o->p = NULL;
        return;
    }
    char *start = o->p, *p = start + n;
    o->p = p;
    for (; v >= 100000000; v /= 100000000)
        p = eight(p, (uint32_t)(v % 100000000));
    uint32_t w = (uint32_t)v;
    for (; w >= 100; w /= 100) {
        p -= 2;
        memcpy(p, rg_digit_pairs + 2 * (size_t)(w % 100), 2);
    }
    if (w >= 10) {
        p -= 2;
        memcpy(p, rg_digit_pairs + 2 * (size_t)w, 2);
    } else {
        *--p = (char)('0' + w);
    }
    while (p > start)
        *--p = '0';
}

/* as printf's %0<width>lld: the sign counts in the width */
static void put_i(struct line *o, long long v, int width)
{
    if (v < 0)
        put(o, "-", 1);
    put_u(o, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v,
          v < 0 ? width - 1 : width);
}

/* Named by hand, not by snprintf: a record is written for every file a
 * command replaces (git checkout), and formatting was most of its cost. */
bool rg_journal_is_id(const char *s)
{
    size_t digits = strspn(s, "0123456789");
    return digits > 0 && s[digits] == '-' && s[digits + 1] &&
           strspn(s + digits + 1, "0123456789") == strlen(s + digits + 1);
}

void rg_journal_id(char out[RG_JOURNAL_ID_MAX], int64_t created_ns, int32_t creator_pid)
{
    struct line o = {out, out + RG_JOURNAL_ID_MAX};
    put_i(&o, created_ns, 19);
    put(&o, "-", 1);
    put_i(&o, creator_pid, 0);
    if (o.p)
        *o.p = '\0';
    else
        out[0] = '\0';
}

size_t rg_jobject_linked(char out[RG_JOURNAL_OBJECT_MAX], uint64_t dev, uint64_t ino,
                         int64_t ctime_ns)
{
    struct line o = {out, out + RG_JOURNAL_OBJECT_MAX};
    put(&o, RG_JOURNAL_LINKED, sizeof RG_JOURNAL_LINKED - 1);
    put_u(&o, dev, 0);
    put(&o, "-", 1);
    put_u(&o, ino, 0);
    put(&o, "-", 1);
    put_i(&o, ctime_ns, 0);
    if (!o.p) {
        out[0] = '\0';
        return 0;
    }
    *o.p = '\0';
    return (size_t)(o.p - out);
}

bool rg_jobject_is_linked(const char *name)
{
    size_t pre = sizeof RG_JOURNAL_LINKED - 1;
    if (strncmp(name, RG_JOURNAL_LINKED, pre) != 0)
        return false;
    int dashes = 0;
    const char *p = name + pre;
    for (; *p && (*p == '-' || (*p >= '0' && *p <= '9')); p++)
        dashes += *p == '-';
    return !*p && dashes == 2 && p - name < RG_JOURNAL_OBJECT_MAX && p[-1] != '-' &&
           name[pre] != '-' && !strstr(name, "--");
}

bool rg_jobject_valid(const char *name)
{
    size_t n = strspn(name, "0123456789abcdef");
    return (n == RG_SHA256_HEX - 1 && !name[n]) || rg_jobject_is_linked(name);
}

/* ,"key": then the value as JSON text. KEY("name") is the key's text and
 * length, put at once: a record has a dozen. */
#define KEY(name) ",\"" name "\":", sizeof(",\"" name "\":") - 1

static void str_n(struct line *o, const char *k, size_t kn, const char *v, size_t vn)
{
    put(o, k, kn);
    put(o, "\"", 1);
    put(o, v, vn);
    put(o, "\"", 1);
}

static void str(struct line *o, const char *k, size_t kn, const char *v)
{
    str_n(o, k, kn, v, strlen(v));
}

static void str_or_null(struct line *o, const char *k, size_t kn, const char *v)
{
    if (v)
        str(o, k, kn, v);
    else
        put(o, k, kn), put(o, "null", 4);
}

/* A path that is not UTF-8 cannot be told from its "path" (each stray
 * byte is U+FFFD there): its bytes, %XX-escaped where they are not.
 * utf8: escaping "path" found it all UTF-8, which spares a second pass. */
static void path_bytes(struct line *o, const char *path, bool utf8)
{
    if (utf8 || rg_utf8_valid(path))
        return;
    put(o, KEY("path_bytes"));
    put(o, "\"", 1);
    size_t n = o->p ? rg_json_escape_bytes(o->p, (size_t)(o->end - o->p), path) : SIZE_MAX;
    o->p = n == SIZE_MAX ? NULL : o->p + n;
    put(o, "\"", 1);
}

static void num(struct line *o, const char *k, size_t kn, long long v)
{
    put(o, k, kn), put_i(o, v, 0);
}

static void unum(struct line *o, const char *k, size_t kn, unsigned long long v)
{
    put(o, k, kn), put_u(o, v, 0);
}

size_t rg_jrecord_format(char *out, size_t cap, const struct rg_jrecord *r)
{
    char path[4200], prog[128], t[RG_TIME_LEN];
    size_t path_len, prog_len = rg_json_escape(prog, sizeof prog, r->prog ? r->prog : "");
    bool utf8 = rg_json_escape_utf8(path, sizeof path, r->path, &path_len);
    /* Cut short, "path" would name another file, and undo would never find
     * this one: no record, which its keeper reports as a path too long. A
     * path that is not UTF-8 is whole in "path_bytes" (or no line fits). */
    if (!utf8 && rg_utf8_valid(r->path))
        return 0;
    rg_format_time(r->time_ns, t);
    struct line o = {out, out + cap};
    put(&o, RG_JRECORD_START, sizeof RG_JRECORD_START - 1);
    put_s(&o, t);
    put(&o, "\"", 1);
    num(&o, KEY("time_ns"), r->time_ns);
    num(&o, KEY("pid"), r->pid);
    str_n(&o, KEY("prog"), prog, prog_len);
    str(&o, KEY("op"), r->op);
    str(&o, KEY("call"), r->call ? r->call : "");
    str_n(&o, KEY("path"), path, path_len);
    path_bytes(&o, r->path, utf8);
    unum(&o, KEY("dev"), r->dev);
    unum(&o, KEY("ino"), r->ino);
    unum(&o, KEY("mode"), r->mode);
    unum(&o, KEY("uid"), r->uid);
    unum(&o, KEY("gid"), r->gid);
    num(&o, KEY("mtime_ns"), r->mtime_ns);
    num(&o, KEY("atime_ns"), r->atime_ns);
    num(&o, KEY("size"), r->size);
    put(&o, KEY("exists"));
    put_s(&o, r->exists ? "true" : "false");
    str_or_null(&o, KEY("object"), r->object);
    str_or_null(&o, KEY("unsaved"), r->unsaved);
    put(&o, "}\n", 2);
    if (!o.p)
        return 0;
    *o.p = '\0';
    return (size_t)(o.p - out);
}

bool rg_jrecord_parse(const char **line, struct rg_jobject *o)
{
    bool ok = rg_jsonl_parse(*line, o);
    if (!ok) {
        const char *last = *line;
        for (const char *p = *line; (p = strstr(p, RG_JRECORD_START)); p++)
            last = p;
        ok = last != *line && rg_jsonl_parse(last, o);
        *line = last;
    }
    return ok && rg_jsonl_get(o, "path") && rg_jsonl_get(o, "op");
}

bool rg_jrecord_path(const struct rg_jobject *o, char *out, size_t cap)
{
    const char *raw = rg_jsonl_get(o, "path_bytes");
    size_t n = raw ? strlen(raw) : 0;
    if (raw && n < cap) {
        memcpy(out, raw, n + 1);
        if (rg_bytes_unescape(out))
            return true;
    }
    const char *path = rg_jsonl_get(o, "path");
    n = path ? strlen(path) : cap;
    if (n >= cap)
        return false;
    memcpy(out, path, n + 1);
    return true;
}
