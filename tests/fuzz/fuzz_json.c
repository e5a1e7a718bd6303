/* JSON escaping (rg_json_escape in shim/text.c), the log line built from it
 * (rg_log_format, shim/report.c) and the CLI's reader of that log
 * (rg_jsonl_parse, shim/core/jsonl.c). Input: a byte choosing the output
 * capacity, then two strings (path and program name); the rest of the input
 * is also fed to the reader as a raw line. Properties: an escape never
 * overruns or splits, is valid UTF-8 without raw control characters, and is
 * a prefix of the untruncated escape; a log line reads back to the same
 * fields, with bytes that are not UTF-8 as U+FFFD; any line at all is read
 * safely, and so is any document by the hook input's nested lookup
 * (rg_json_lookup), whose answer always fits, NUL-ended, in its buffer; a
 * journal record's path reads back byte for byte (rg_jrecord_format). */
#include "core/jrecord.h"
#include "core/jsonl.h"
#include "core/report.h"
#include "core/text.h"
#include "fuzz.h"
#define MAX 2048

/* Well-formed UTF-8 (RFC 3629), written apart from text.c on purpose. */
static size_t valid_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (n == 0 || s[0] > 0xf4)
        return 0;
    uint32_t cp = s[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
        return 0;
    return n;
}

/* The input with each byte that does not start a valid sequence replaced
 * by U+FFFD: what the log promises to show. */
static void expected(const char *in, char *out)
{
    const unsigned char *s = (const unsigned char *)in;
    while (*s) {
        size_t n = valid_len(s);
        if (n == 0)
            memcpy(out, "\xef\xbf\xbd", 3), out += 3, s++;
        else
            memcpy(out, s, n), out += n, s += n;
    }
    *out = '\0';
}

static void check_escaped(const char *e, size_t len)
{
    FUZZ_CHECK(strlen(e) == len);
    for (const unsigned char *s = (const unsigned char *)e; *s;) {
        FUZZ_CHECK(*s >= 0x20 && *s != '"');
        if (*s == '\\') {
            FUZZ_CHECK(strchr("\"\\nt", s[1]) || (s[1] == 'u' && s[2] && s[3] && s[4] && s[5]));
            s += s[1] == 'u' ? 6 : 2;
            continue;
        }
        size_t n = valid_len(s);
        FUZZ_CHECK(n > 0);
        s += n;
    }
}

static void check_escape(const char *src, size_t cap)
{
    static char full[MAX * 6 + 1];
    size_t flen = rg_json_escape(full, sizeof full, src);
    check_escaped(full, flen);
    char *small = malloc(cap); /* exact size: ASan sees any overrun */
    FUZZ_CHECK(small);
    size_t slen = rg_json_escape(small, cap, src);
    FUZZ_CHECK(slen < cap);
    check_escaped(small, slen);
    FUZZ_CHECK(slen <= flen && memcmp(small, full, slen) == 0);
    free(small);
}

/* rg_log_format bounds each field (a path to 2 KiB of escapes, a program
 * name to 256 bytes), cutting only between characters: what comes back is
 * the expected text or a prefix of it. */
static void check_field(const char *got, const char *want)
{
    FUZZ_CHECK(got);
    size_t n = strlen(got);
    FUZZ_CHECK(n <= strlen(want) && memcmp(got, want, n) == 0);
    FUZZ_CHECK(want[n] == '\0' || (want[n] & 0xc0) != 0x80);
}

static void check_round_trip(const char *path, const char *prog, uint64_t n)
{
    struct rg_log_line l = {
        .time_ns = (int64_t)n,
        .pid = (int)(n >> 40),
        .prog = prog,
        .op = "open",
        .call = "openat",
        .path = path,
        .decision = "refuse",
        .reason = "unread",
        .recorded = n & 1,
        .recorded_mtime_ns = -(int64_t)n,
        .recorded_size = (int64_t)(n >> 3),
        .current_mtime_ns = INT64_MIN,
        .current_size = INT64_MAX,
    };
    static char line[MAX * 12 + 1024];
    size_t len = rg_log_format(line, sizeof line, &l);
    FUZZ_CHECK(len > 0 && line[len - 1] == '\n');
    FUZZ_CHECK(strlen(line) == len);
    static struct rg_jobject o;
    /* The reader's value buffer is smaller than the longest line: such a
     * line is refused, never cut. */
    if (!rg_jsonl_parse(line, &o))
        return;
    static char want[MAX * 3 + 1];
    expected(path, want);
    check_field(rg_jsonl_get(&o, "path"), want);
    expected(prog, want);
    check_field(rg_jsonl_get(&o, "prog"), want);
    FUZZ_CHECK(strcmp(rg_jsonl_get(&o, "reason"), "unread") == 0);
    FUZZ_CHECK(!(n & 1) == !rg_jsonl_get(&o, "recorded_size"));
}

/* A journal record keeps a path's bytes: one that is not UTF-8 reads back
 * from "path_bytes" exactly, whatever it holds; a UTF-8 one has none. */
static void check_record_bytes(const char *path)
{
    static char line[8192];
    struct rg_jrecord r = {.op = "unlink", .path = path, .object = "ino-1-2-3"};
    static struct rg_jobject o;
    if (rg_jrecord_format(line, sizeof line, &r) == 0 || !rg_jsonl_parse(line, &o))
        return; /* too long for a line: refused whole, never cut */
    const char *raw = rg_jsonl_get(&o, "path_bytes");
    FUZZ_CHECK(!raw == rg_utf8_valid(path));
    if (!raw)
        return;
    static char back[MAX * 3 + 1];
    FUZZ_CHECK(strlen(raw) < sizeof back);
    memcpy(back, raw, strlen(raw) + 1);
    FUZZ_CHECK(rg_bytes_unescape(back) && strcmp(back, path) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t cap = 1 + data[0] % 64;
    const uint8_t *rest = data + 1;
    size_t left = size - 1;
    char path[MAX], prog[64];
    fuzz_take_string(&rest, &left, path, sizeof path);
    fuzz_take_string(&rest, &left, prog, sizeof prog);
    check_escape(path, cap);
    check_escape(path, MAX);
    check_round_trip(path, prog, size * 0x9e3779b97f4a7c15ull);
    check_record_bytes(path);

    /* The whole input as a line the reader meets in a log file: exact-size
     * copy, so a read past its NUL is seen. */
    char *raw = malloc(size + 1);
    FUZZ_CHECK(raw);
    memcpy(raw, data, size);
    raw[size] = '\0';
    static struct rg_jobject o;
    if (rg_jsonl_parse(raw, &o))
        FUZZ_CHECK(o.n <= RG_JSONL_FIELDS);
    const char *keys[] = {"tool_input", "file_path", NULL};
    char *val = malloc(cap);
    FUZZ_CHECK(val);
    if (rg_json_lookup(raw, keys, val, cap))
        FUZZ_CHECK(strlen(val) < cap);
    if (rg_json_lookup(raw, keys + 1, val, cap))
        FUZZ_CHECK(strlen(val) < cap);
    free(val);
    free(raw);
    return 0;
}
