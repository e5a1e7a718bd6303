/* Unit tests for the JSON escapes of core/text.c: rg_json_escape, which
 * replaces what is not UTF-8, and its _utf8 and _bytes forms, which say so
 * or keep the bytes, and never split an escape at the buffer's end. */
#include <stdint.h>

#include "check.h"
#include "core/text.h"

/* Escapes src into a buffer of cap bytes followed by guard bytes, checks the
 * guard, the terminator and the returned length, and returns the text. */
static const char *esc_cap(const char *src, size_t cap)
{
    static char buf[512];
    memset(buf, '#', sizeof buf);
    size_t n = rg_json_escape(buf, cap, src);
    for (size_t i = cap; i < sizeof buf; i++)
        if (!CHECK(buf[i] == '#'))
            break;
    if (cap == 0) {
        CHECK_EQ_INT(n, 0);
        return "";
    }
    CHECK(n < cap);
    CHECK_EQ_INT(strnlen(buf, cap), n);
    return buf;
}

static const char *esc(const char *src) { return esc_cap(src, 256); }

TEST(json_plain_text_is_copied) { CHECK_EQ_STR(esc("/home/u/file.c"), "/home/u/file.c"); }

TEST(json_empty_string) { CHECK_EQ_STR(esc(""), ""); }

TEST(json_quote_is_escaped) { CHECK_EQ_STR(esc("a\"b"), "a\\\"b"); }

TEST(json_backslash_is_escaped) { CHECK_EQ_STR(esc("a\\b"), "a\\\\b"); }

TEST(json_newline_is_escaped) { CHECK_EQ_STR(esc("a\nb"), "a\\nb"); }

TEST(json_tab_is_escaped) { CHECK_EQ_STR(esc("a\tb"), "a\\tb"); }

TEST(json_control_chars_use_u_escapes)
{
    CHECK_EQ_STR(esc("\x01"), "\\u0001");
    CHECK_EQ_STR(esc("\x1f"), "\\u001f");
    CHECK_EQ_STR(esc("a\rb"), "a\\u000db");
    CHECK_EQ_STR(esc("\x7f"), "\\u007f");
}

TEST(json_valid_utf8_is_kept)
{
    CHECK_EQ_STR(esc("caf\xc3\xa9"), "caf\xc3\xa9");               /* é */
    CHECK_EQ_STR(esc("\xe2\x82\xac"), "\xe2\x82\xac");             /* € */
    CHECK_EQ_STR(esc("x\xf0\x9f\x98\x80y"), "x\xf0\x9f\x98\x80y"); /* U+1F600 */
    CHECK_EQ_STR(esc("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");     /* U+10FFFF */
}

TEST(json_invalid_byte_becomes_replacement)
{
    CHECK_EQ_STR(esc("a\xff"
                     "b"),
                 "a\\ufffdb");
}

TEST(json_lone_continuation_becomes_replacement) { CHECK_EQ_STR(esc("\x80"), "\\ufffd"); }

TEST(json_overlong_encoding_is_replaced)
{
    CHECK_EQ_STR(esc("\xc0\x80"), "\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xc1\xbf"), "\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xe0\x80\xaf"), "\\ufffd\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xf0\x8f\xbf\xbf"), "\\ufffd\\ufffd\\ufffd\\ufffd");
}

TEST(json_surrogate_is_replaced)
{
    CHECK_EQ_STR(esc("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xed\xbf\xbf"), "\\ufffd\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xed\x9f\xbf"), "\xed\x9f\xbf"); /* U+D7FF is fine */
}

TEST(json_above_u10ffff_is_replaced)
{
    CHECK_EQ_STR(esc("\xf4\x90\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xf5\x80\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd");
}

TEST(json_truncated_sequence_at_end_is_replaced)
{
    CHECK_EQ_STR(esc("ab\xc3"), "ab\\ufffd");
    CHECK_EQ_STR(esc("ab\xe2\x82"), "ab\\ufffd\\ufffd");
    CHECK_EQ_STR(esc("\xf0\x9f\x98"), "\\ufffd\\ufffd\\ufffd");
}

TEST(json_truncated_sequence_before_ascii_keeps_the_ascii)
{
    CHECK_EQ_STR(esc("\xc3"
                     "a"),
                 "\\ufffda");
    CHECK_EQ_STR(esc("\xe2\x82\"x"), "\\ufffd\\ufffd\\\"x");
}

TEST(json_small_cap_never_splits_an_escape)
{
    CHECK_EQ_STR(esc_cap("a\"b", 3), "a");
    CHECK_EQ_STR(esc_cap("a\"b", 4), "a\\\"");
    CHECK_EQ_STR(esc_cap("\x01", 6), "");
    CHECK_EQ_STR(esc_cap("\x01", 7), "\\u0001");
    CHECK_EQ_STR(esc_cap("x\xff", 7), "x");
    CHECK_EQ_STR(esc_cap("x\xff", 8), "x\\ufffd");
    CHECK_EQ_STR(esc_cap("a\nb", 3), "a");
}

TEST(json_small_cap_never_splits_utf8)
{
    CHECK_EQ_STR(esc_cap("\xc3\xa9", 2), "");
    CHECK_EQ_STR(esc_cap("\xc3\xa9", 3), "\xc3\xa9");
    CHECK_EQ_STR(esc_cap("a\xf0\x9f\x98\x80", 5), "a");
    CHECK_EQ_STR(esc_cap("a\xf0\x9f\x98\x80", 6), "a\xf0\x9f\x98\x80");
}

TEST(json_small_cap_stops_at_the_first_piece_that_does_not_fit)
{
    /* A short piece after a long one that did not fit is not squeezed in. */
    CHECK_EQ_STR(esc_cap("a\x01"
                         "b",
                         4),
                 "a");
    CHECK_EQ_STR(esc_cap("abcdef", 4), "abc");
}

TEST(json_cap_zero_writes_nothing) { CHECK_EQ_STR(esc_cap("abc", 0), ""); }

TEST(json_cap_one_writes_only_the_terminator) { CHECK_EQ_STR(esc_cap("abc", 1), ""); }

TEST(escape_bytes_keeps_what_is_not_utf8_and_reads_back)
{
    char b[128];
    const char *name = "/w/caf\xe9 100%\"\n\xc3\xa9.txt";
    CHECK(!rg_utf8_valid(name));
    CHECK(rg_utf8_valid("/w/caf\xc3\xa9"));
    CHECK(rg_json_escape_bytes(b, sizeof b, name) != SIZE_MAX);
    CHECK_EQ_STR(b, "/w/caf%e9 100%25\\\"\\n\xc3\xa9.txt");
    char back[128] = "/w/caf%e9 100%25\"\n\xc3\xa9.txt"; /* as JSON reads it */
    CHECK(rg_bytes_unescape(back));
    CHECK_EQ_STR(back, name);
}

TEST(escape_utf8_escapes_as_json_escape_does)
{
    static const char *const srcs[] = {"/w/a b%.txt", "/w/\"q\"\\\n\t\x01\x7f", "/w/caf\xc3\xa9",
                                       "/w/caf\xe9", ""};
    for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
        char a[128], b[128];
        size_t n, m = rg_json_escape(a, sizeof a, srcs[i]);
        rg_json_escape_utf8(b, sizeof b, srcs[i], &n);
        CHECK_EQ_STR(b, a);
        CHECK_EQ_INT(n, m);
    }
}

TEST(escape_utf8_says_whether_the_text_was_utf8)
{
    char b[128];
    size_t n;
    CHECK(rg_json_escape_utf8(b, sizeof b, "/w/plain \"ascii\"\n", &n));
    CHECK(rg_json_escape_utf8(b, sizeof b, "/w/caf\xc3\xa9 \xf0\x9f\x98\x80", &n));
    CHECK(!rg_json_escape_utf8(b, sizeof b, "/w/caf\xe9", &n));
    CHECK(!rg_json_escape_utf8(b, sizeof b, "/w/\xc3", &n));         /* cut short */
    CHECK(!rg_json_escape_utf8(b, sizeof b, "/w/\xed\xa0\x80", &n)); /* a surrogate */
}

TEST(escape_utf8_is_false_when_the_text_does_not_fit)
{
    char b[8];
    size_t n;
    CHECK(rg_json_escape_utf8(b, sizeof b, "abcdefg", &n));
    CHECK_EQ_INT(n, 7);
    CHECK(!rg_json_escape_utf8(b, sizeof b, "abcdefgh", &n));
    CHECK_EQ_INT(n, 7);
}

TEST(escape_bytes_says_when_it_does_not_fit)
{
    char b[8];
    CHECK_EQ_INT(rg_json_escape_bytes(b, sizeof b, "abcdefg"), 7);
    CHECK(rg_json_escape_bytes(b, sizeof b, "abcdefgh") == SIZE_MAX);
    CHECK(rg_json_escape_bytes(b, sizeof b, "abcde\xff") == SIZE_MAX); /* %ff: 3 bytes */
    CHECK(rg_json_escape_bytes(b, 0, "a") == SIZE_MAX);
}

TEST(bytes_unescape_refuses_a_bad_escape_or_a_nul)
{
    char a[] = "a%4", b[] = "a%zz", c[] = "a%00", d[] = "%41%2f";
    CHECK(!rg_bytes_unescape(a));
    CHECK(!rg_bytes_unescape(b));
    CHECK(!rg_bytes_unescape(c));
    CHECK(rg_bytes_unescape(d));
    CHECK_EQ_STR(d, "A/");
}

int main(void)
{
    RUN(json_plain_text_is_copied);
    RUN(json_empty_string);
    RUN(json_quote_is_escaped);
    RUN(json_backslash_is_escaped);
    RUN(json_newline_is_escaped);
    RUN(json_tab_is_escaped);
    RUN(json_control_chars_use_u_escapes);
    RUN(json_valid_utf8_is_kept);
    RUN(json_invalid_byte_becomes_replacement);
    RUN(json_lone_continuation_becomes_replacement);
    RUN(json_overlong_encoding_is_replaced);
    RUN(json_surrogate_is_replaced);
    RUN(json_above_u10ffff_is_replaced);
    RUN(json_truncated_sequence_at_end_is_replaced);
    RUN(json_truncated_sequence_before_ascii_keeps_the_ascii);
    RUN(json_small_cap_never_splits_an_escape);
    RUN(json_small_cap_never_splits_utf8);
    RUN(json_small_cap_stops_at_the_first_piece_that_does_not_fit);
    RUN(json_cap_zero_writes_nothing);
    RUN(json_cap_one_writes_only_the_terminator);
    RUN(escape_bytes_keeps_what_is_not_utf8_and_reads_back);
    RUN(escape_utf8_escapes_as_json_escape_does);
    RUN(escape_utf8_says_whether_the_text_was_utf8);
    RUN(escape_utf8_is_false_when_the_text_does_not_fit);
    RUN(escape_bytes_says_when_it_does_not_fit);
    RUN(bytes_unescape_refuses_a_bad_escape_or_a_nul);
    return check_done();
}
