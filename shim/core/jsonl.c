#include "core/jsonl.h"
#include <string.h>

struct cursor {
    const char *p;
    char *out, *end;
};

static void skip_ws(struct cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n')
        c->p++;
}

static bool put(struct cursor *c, unsigned char ch)
{
    if (c->out >= c->end)
        return false;
    *c->out++ = (char)ch;
    return true;
}

static bool put_utf8(struct cursor *c, unsigned cp)
{
    if (cp < 0x80)
        return put(c, cp);
    if (cp < 0x800)
        return put(c, 0xc0 | cp >> 6) && put(c, 0x80 | (cp & 0x3f));
    if (cp < 0x10000)
        return put(c, 0xe0 | cp >> 12) && put(c, 0x80 | (cp >> 6 & 0x3f)) &&
               put(c, 0x80 | (cp & 0x3f));
    return put(c, 0xf0 | cp >> 18) && put(c, 0x80 | (cp >> 12 & 0x3f)) &&
           put(c, 0x80 | (cp >> 6 & 0x3f)) && put(c, 0x80 | (cp & 0x3f));
}

/* Exactly four hex digits. Each is looked at only after the one before it
 * was a digit, so a line ending in "\u" is never read past its NUL; and no
 * sign, space or "0x" gets in, as strtoul would let them. */
static bool hex4(const char *p, unsigned *v)
{
    unsigned x = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        unsigned d = ch >= '0' && ch <= '9'   ? (unsigned)(ch - '0')
                     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                     : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10)
                                              : 16u;
        if (d == 16)
            return false;
        x = x << 4 | d;
    }
    *v = x;
    return true;
}

static bool escape(struct cursor *c)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = strchr(from, *c->p);
    if (*c->p && k) {
        c->p++;
        return put(c, (unsigned char)to[k - from]);
    }
    unsigned cp, lo;
    if (*c->p != 'u' || !hex4(c->p + 1, &cp))
        return false;
    c->p += 5;
    if (cp >= 0xd800 && cp < 0xdc00 && c->p[0] == '\\' && c->p[1] == 'u' && hex4(c->p + 2, &lo) &&
        lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        c->p += 6;
    } else if (cp >= 0xd800 && cp < 0xe000) {
        cp = 0xfffd;
    }
    return put_utf8(c, cp);
}

/* A string at c->p (after its opening quote), unescaped into c->out. */
static bool string(struct cursor *c)
{
    while (*c->p != '"') {
        unsigned char ch = (unsigned char)*c->p++;
        if (ch < 0x20) /* the NUL that ends an unterminated string too */
            return false;
        if (ch == '\\' ? !escape(c) : !put(c, ch))
            return false;
    }
    c->p++;
    return put(c, '\0');
}

static bool literal(struct cursor *c)
{
    size_t n = strcspn(c->p, ",} \t\r\n");
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!put(c, (unsigned char)c->p[i]))
            return false;
    c->p += n;
    return put(c, '\0');
}

bool rg_jsonl_parse(const char *line, struct rg_jobject *o)
{
    struct cursor c = {line, o->buf, o->buf + sizeof o->buf};
    o->n = 0;
    skip_ws(&c);
    if (*c.p++ != '{')
        return false;
    skip_ws(&c);
    if (*c.p == '}')
        return true;
    for (;;) {
        if (o->n == RG_JSONL_FIELDS || *c.p++ != '"')
            return false;
        struct rg_jfield *f = &o->f[o->n++];
        char *key = c.out;
        if (!string(&c) || strlen(key) >= sizeof f->key)
            return false;
        memcpy(f->key, key, strlen(key) + 1);
        c.out = key; /* keys are copied out; reuse the space */
        skip_ws(&c);
        if (*c.p++ != ':')
            return false;
        skip_ws(&c);
        f->value = c.out;
        f->is_string = *c.p == '"';
        if (f->is_string ? (c.p++, !string(&c)) : !literal(&c))
            return false;
        skip_ws(&c);
        if (*c.p == '}')
            break;
        if (*c.p++ != ',')
            return false;
        skip_ws(&c);
    }
    c.p++;
    skip_ws(&c);
    return *c.p == '\0';
}

const char *rg_jsonl_get(const struct rg_jobject *o, const char *key)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->f[i].key, key) == 0)
            return !o->f[i].is_string && strcmp(o->f[i].value, "null") == 0 ? NULL : o->f[i].value;
    return NULL;
}

/* A string at c->p (after its opening quote), checked but not kept. */
static bool skip_string(struct cursor *c)
{
    unsigned cp;
    while (*c->p != '"') {
        unsigned char ch = (unsigned char)*c->p++;
        if (ch < 0x20)
            return false;
        if (ch != '\\')
            continue;
        if (*c->p == 'u' && hex4(c->p + 1, &cp))
            c->p += 5;
        else if (*c->p && strchr("\"\\/bfnrt", *c->p))
            c->p++;
        else
            return false;
    }
    c->p++;
    return true;
}

static bool skip_value(struct cursor *c, int depth)
{
    skip_ws(c);
    if (*c->p == '"')
        return c->p++, skip_string(c);
    if (*c->p != '{' && *c->p != '[') {
        size_t n = strcspn(c->p, ",}] \t\r\n");
        c->p += n;
        return n > 0;
    }
    char close = *c->p++ == '{' ? '}' : ']';
    if (depth >= RG_JSON_DEPTH)
        return false;
    skip_ws(c);
    if (*c->p == close)
        return c->p++, true;
    for (;;) {
        if (close == '}') {
            if (*c->p++ != '"' || !skip_string(c))
                return false;
            skip_ws(c);
            if (*c->p++ != ':')
                return false;
        }
        if (!skip_value(c, depth + 1))
            return false;
        skip_ws(c);
        if (*c->p == close)
            return c->p++, true;
        if (*c->p++ != ',')
            return false;
        skip_ws(c);
    }
}

/* Moves c->p to the value of member key of the object at c->p. */
static bool member(struct cursor *c, const char *key)
{
    skip_ws(c);
    if (*c->p++ != '{')
        return false;
    skip_ws(c);
    while (*c->p++ == '"') {
        char name[64];
        struct cursor k = {c->p, name, name + sizeof name};
        bool match = string(&k) && strcmp(name, key) == 0;
        if (!match && !skip_string(c))
            return false;
        if (match)
            c->p = k.p;
        skip_ws(c);
        if (*c->p++ != ':')
            return false;
        skip_ws(c);
        if (match)
            return true;
        if (!skip_value(c, 1))
            return false;
        skip_ws(c);
        if (*c->p++ != ',')
            return false; /* the '}' that ends the object: key is absent */
        skip_ws(c);
    }
    return false;
}

bool rg_json_lookup(const char *doc, const char *const *keys, char *out, size_t cap)
{
    struct cursor c = {doc, out, out + cap};
    for (; *keys; keys++)
        if (!member(&c, *keys))
            return false;
    if (*c.p == '"')
        return c.p++, string(&c);
    if (*c.p == '{' || *c.p == '[' || strncmp(c.p, "null", 4) == 0 || cap == 0)
        return false;
    size_t n = strcspn(c.p, ",}] \t\r\n");
    if (n == 0 || n >= cap)
        return false;
    memcpy(out, c.p, n);
    out[n] = '\0';
    return true;
}

bool rg_json_is_object(const char *doc)
{
    struct cursor c = {doc, NULL, NULL};
    skip_ws(&c);
    if (*c.p != '{' || !skip_value(&c, 0))
        return false;
    skip_ws(&c);
    return *c.p == '\0';
}
