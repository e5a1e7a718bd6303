/* Unit tests for core/text.c (JSON escaping, time stamps, lexical paths)
 * and the parsers of core/settings.c. */
#include <stdint.h>

#include "check.h"
#include "core/settings.h"
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

/* --- rg_json_escape ------------------------------------------------------- */

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

/* --- rg_format_time ------------------------------------------------------- */

static const char *fmt_time(int64_t ns)
{
    static char buf[RG_TIME_LEN + 8];
    memset(buf, '#', sizeof buf);
    rg_format_time(ns, buf);
    CHECK(memchr(buf, '\0', RG_TIME_LEN) != NULL);
    for (size_t i = RG_TIME_LEN; i < sizeof buf; i++)
        CHECK(buf[i] == '#');
    return buf;
}

TEST(time_epoch) { CHECK_EQ_STR(fmt_time(0), "1970-01-01T00:00:00.000000000Z"); }

TEST(time_known_timestamp)
{
    CHECK_EQ_STR(fmt_time(1700000000123456789), "2023-11-14T22:13:20.123456789Z");
}

TEST(time_before_epoch)
{
    CHECK_EQ_STR(fmt_time(-1), "1969-12-31T23:59:59.999999999Z");
    CHECK_EQ_STR(fmt_time(-1000000000), "1969-12-31T23:59:59.000000000Z");
    CHECK_EQ_STR(fmt_time(-86400000000001), "1969-12-30T23:59:59.999999999Z");
    CHECK_EQ_STR(fmt_time(INT64_MIN), "1677-09-21T00:12:43.145224192Z");
}

TEST(time_leap_day)
{
    CHECK_EQ_STR(fmt_time(1709164800000000000), "2024-02-29T00:00:00.000000000Z");
    CHECK_EQ_STR(fmt_time(1709251199999999999), "2024-02-29T23:59:59.999999999Z");
    CHECK_EQ_STR(fmt_time(1709251200000000000), "2024-03-01T00:00:00.000000000Z");
    CHECK_EQ_STR(fmt_time(951782400000000000), "2000-02-29T00:00:00.000000000Z");
}

TEST(time_end_of_year)
{
    CHECK_EQ_STR(fmt_time(1704067199000000001), "2023-12-31T23:59:59.000000001Z");
}
TEST(time_int64_max) { CHECK_EQ_STR(fmt_time(INT64_MAX), "2262-04-11T23:47:16.854775807Z"); }

/* --- rg_path_join --------------------------------------------------------- */

static const char *join(const char *base, const char *path)
{
    static char out[256];
    if (!rg_path_join(out, sizeof out, base, path))
        return "(false)";
    return out;
}

static bool join_cap(size_t cap, const char *base, const char *path, const char **result)
{
    static char out[256];
    memset(out, '#', sizeof out);
    bool ok = rg_path_join(out, cap, base, path);
    for (size_t i = cap; i < sizeof out; i++)
        if (!CHECK(out[i] == '#'))
            break;
    *result = ok ? out : "(false)";
    return ok;
}

TEST(join_relative_onto_base) { CHECK_EQ_STR(join("/home/u", "src/a.c"), "/home/u/src/a.c"); }
TEST(join_absolute_ignores_base) { CHECK_EQ_STR(join("/home/u", "/etc/passwd"), "/etc/passwd"); }
TEST(join_dot_components_vanish) { CHECK_EQ_STR(join("/a/./b", "./c/."), "/a/b/c"); }
TEST(join_dot_alone_is_base) { CHECK_EQ_STR(join("/a/b", "."), "/a/b"); }
TEST(join_dotdot_removes_a_component) { CHECK_EQ_STR(join("/a/b", "../c"), "/a/c"); }
TEST(join_dotdot_in_base) { CHECK_EQ_STR(join("/a/b/../c", "d"), "/a/c/d"); }

TEST(join_dotdot_past_root_stays_at_root)
{
    CHECK_EQ_STR(join("/a", "../.."), "/");
    CHECK_EQ_STR(join("/", "../../x"), "/x");
    CHECK_EQ_STR(join("/a", "/../../b/.."), "/");
}

TEST(join_repeated_slashes_fold) { CHECK_EQ_STR(join("//a///b", "c//d"), "/a/b/c/d"); }
TEST(join_trailing_slash_is_dropped) { CHECK_EQ_STR(join("/a/", "b/"), "/a/b"); }
TEST(join_root_onto_root) { CHECK_EQ_STR(join("/", "/"), "/"); }
TEST(join_empty_path_is_base) { CHECK_EQ_STR(join("/a/b", ""), "/a/b"); }
TEST(join_dotdot_prefix_is_a_name) { CHECK_EQ_STR(join("/a", "..b/.c/..."), "/a/..b/.c/..."); }

TEST(join_too_long_is_false)
{
    const char *r;
    CHECK(!join_cap(8, "/abc", "defgh", &r));
    CHECK(!join_cap(2, "/", "x", &r));
    CHECK(!join_cap(1, "/", "/", &r));
    CHECK(!join_cap(0, "/", "/", &r));
}

TEST(join_exact_fit)
{
    /* "/abc/de" is 7 characters: it needs and fits 8 bytes. */
    const char *r;
    CHECK(join_cap(8, "/abc", "de", &r));
    CHECK_EQ_STR(r, "/abc/de");
    CHECK(!join_cap(7, "/abc", "de", &r));
    CHECK(join_cap(2, "/", "/", &r));
    CHECK_EQ_STR(r, "/");
    CHECK(join_cap(3, "/", "x", &r));
    CHECK_EQ_STR(r, "/x");
}

/* --- rg_path_under -------------------------------------------------------- */

TEST(under_child_is_under) { CHECK(rg_path_under("/a/b", "/a")); }
TEST(under_deep_child_is_under) { CHECK(rg_path_under("/a/b/c/d", "/a/b")); }
TEST(under_sibling_prefix_is_not_under) { CHECK(!rg_path_under("/ab", "/a")); }
TEST(under_root_itself_is_under) { CHECK(rg_path_under("/a", "/a")); }
TEST(under_parent_is_not_under) { CHECK(!rg_path_under("/", "/a")); }
TEST(under_other_tree_is_not_under) { CHECK(!rg_path_under("/b/a", "/a")); }

TEST(under_slash_holds_everything)
{
    CHECK(rg_path_under("/", "/"));
    CHECK(rg_path_under("/x", "/"));
    CHECK(rg_path_under("/x/y/z", "/"));
}

/* --- settings.h parsers --------------------------------------------------- */

TEST(mode_parse_names)
{
    CHECK_EQ_INT(rg_mode_parse("enforce"), RG_MODE_ENFORCE);
    CHECK_EQ_INT(rg_mode_parse("warn"), RG_MODE_WARN);
}

TEST(mode_parse_rejects_others)
{
    CHECK_EQ_INT(rg_mode_parse(""), -1);
    CHECK_EQ_INT(rg_mode_parse("Warn"), -1);
    CHECK_EQ_INT(rg_mode_parse("warn "), -1);
    CHECK_EQ_INT(rg_mode_parse("enforcing"), -1);
    CHECK_EQ_INT(rg_mode_parse("off"), -1);
}

TEST(mode_name_round_trips)
{
    CHECK_EQ_STR(rg_mode_name(RG_MODE_ENFORCE), "enforce");
    CHECK_EQ_STR(rg_mode_name(RG_MODE_WARN), "warn");
    CHECK_EQ_INT(rg_mode_parse(rg_mode_name(RG_MODE_WARN)), RG_MODE_WARN);
    CHECK_EQ_INT(rg_mode_parse(rg_mode_name(RG_MODE_ENFORCE)), RG_MODE_ENFORCE);
}

TEST(capacity_parse_plain_number)
{
    CHECK_EQ_INT(rg_capacity_parse("16"), 16);
    CHECK_EQ_INT(rg_capacity_parse("100000"), 100000);
}

TEST(capacity_parse_suffixes)
{
    CHECK_EQ_INT(rg_capacity_parse("1M"), 1000000);
    CHECK_EQ_INT(rg_capacity_parse("100k"), 100000);
    CHECK_EQ_INT(rg_capacity_parse("100K"), 100000);
}

TEST(capacity_parse_limits)
{
    CHECK_EQ_INT(rg_capacity_parse("67108864"), RG_MAX_CAPACITY);
    CHECK_EQ_INT(rg_capacity_parse("67108865"), 0);
    CHECK_EQ_INT(rg_capacity_parse("68M"), 0);
}

TEST(capacity_parse_zero_is_invalid) { CHECK_EQ_INT(rg_capacity_parse("0"), 0); }
TEST(capacity_parse_negative_is_invalid) { CHECK_EQ_INT(rg_capacity_parse("-5"), 0); }
TEST(capacity_parse_below_minimum_is_invalid) { CHECK_EQ_INT(rg_capacity_parse("15"), 0); }
TEST(capacity_parse_huge_is_invalid) { CHECK_EQ_INT(rg_capacity_parse("99999999999"), 0); }

TEST(capacity_parse_garbage_is_invalid)
{
    CHECK_EQ_INT(rg_capacity_parse("abc"), 0);
    CHECK_EQ_INT(rg_capacity_parse(""), 0);
    CHECK_EQ_INT(rg_capacity_parse("16x"), 0);
    CHECK_EQ_INT(rg_capacity_parse("1Mk"), 0);
    CHECK_EQ_INT(rg_capacity_parse("1G"), 0);
    CHECK_EQ_INT(rg_capacity_parse("k"), 0);
}

TEST(capacity_parse_rejects_suffix_overflow)
{
    /* (2^58 + 1) * 10^6 wraps to exactly 10^6 in 64 bits; (2^61 + 1) * 10^3
     * wraps to 1000. Both are far out of range. */
    CHECK_EQ_INT(rg_capacity_parse("288230376151711745M"), 0);
    CHECK_EQ_INT(rg_capacity_parse("2305843009213693953k"), 0);
}

/* --- rg_line_escape -------------------------------------------------------- */

static const char *line_esc(const char *src, size_t cap)
{
    static char buf[256];
    size_t n = rg_line_escape(buf, cap, src);
    CHECK_EQ_INT(n, strlen(buf));
    return buf;
}

TEST(line_plain_text_and_quotes_are_kept)
{
    CHECK_EQ_STR(line_esc("src/main.c 'x' \"y\" back\\slash", 256),
                 "src/main.c 'x' \"y\" back\\slash");
}

TEST(line_newline_and_tab_are_escaped)
{
    CHECK_EQ_STR(line_esc("new\nline\ttab", 256), "new\\nline\\ttab");
}

TEST(line_other_controls_become_hex)
{
    CHECK_EQ_STR(line_esc("a\rb\x1b[0m\x7f", 256), "a\\x0db\\x1b[0m\\x7f");
}

TEST(line_invalid_utf8_is_kept_as_given)
{
    CHECK_EQ_STR(line_esc("inv\xff\xc3\xa9", 256), "inv\xff\xc3\xa9");
}

TEST(line_small_cap_never_splits_an_escape)
{
    CHECK_EQ_STR(line_esc("ab\ncd", 4), "ab");
    CHECK_EQ_STR(line_esc("ab\ncd", 5), "ab\\n");
    CHECK_EQ_INT(rg_line_escape(NULL, 0, "x"), 0);
}

TEST(concat_joins_parts_or_writes_nothing)
{
    char b[8];
    CHECK(rg_concat(b, sizeof b, "ab", "/", "cdef"));
    CHECK_EQ_STR(b, "ab/cdef");
    CHECK(!rg_concat(b, sizeof b, "ab", "/", "cdefg"));
    CHECK_EQ_STR(b, ""); /* never a cut-off path */
    CHECK(rg_concat(b, sizeof b, ""));
    CHECK_EQ_STR(b, "");
}

TEST(fd_link_names_the_descriptor)
{
    char l[RG_FD_LINK_MAX];
    rg_fd_link(l, 0);
    CHECK_EQ_STR(l, "/proc/self/fd/0");
    rg_fd_link(l, 4095);
    CHECK_EQ_STR(l, "/proc/self/fd/4095");
    rg_fd_link(l, 2147483647);
    CHECK_EQ_STR(l, "/proc/self/fd/2147483647");
}

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
    RUN(line_plain_text_and_quotes_are_kept);
    RUN(line_newline_and_tab_are_escaped);
    RUN(line_other_controls_become_hex);
    RUN(line_invalid_utf8_is_kept_as_given);
    RUN(line_small_cap_never_splits_an_escape);
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
    RUN(time_epoch);
    RUN(time_known_timestamp);
    RUN(time_before_epoch);
    RUN(time_leap_day);
    RUN(time_end_of_year);
    RUN(time_int64_max);
    RUN(join_relative_onto_base);
    RUN(join_absolute_ignores_base);
    RUN(join_dot_components_vanish);
    RUN(join_dot_alone_is_base);
    RUN(join_dotdot_removes_a_component);
    RUN(join_dotdot_in_base);
    RUN(join_dotdot_past_root_stays_at_root);
    RUN(join_repeated_slashes_fold);
    RUN(join_trailing_slash_is_dropped);
    RUN(join_root_onto_root);
    RUN(join_empty_path_is_base);
    RUN(join_dotdot_prefix_is_a_name);
    RUN(join_too_long_is_false);
    RUN(join_exact_fit);
    RUN(under_child_is_under);
    RUN(under_deep_child_is_under);
    RUN(under_sibling_prefix_is_not_under);
    RUN(under_root_itself_is_under);
    RUN(under_parent_is_not_under);
    RUN(under_other_tree_is_not_under);
    RUN(under_slash_holds_everything);
    RUN(mode_parse_names);
    RUN(mode_parse_rejects_others);
    RUN(mode_name_round_trips);
    RUN(capacity_parse_plain_number);
    RUN(capacity_parse_suffixes);
    RUN(capacity_parse_limits);
    RUN(capacity_parse_zero_is_invalid);
    RUN(capacity_parse_negative_is_invalid);
    RUN(capacity_parse_below_minimum_is_invalid);
    RUN(capacity_parse_huge_is_invalid);
    RUN(capacity_parse_garbage_is_invalid);
    RUN(capacity_parse_rejects_suffix_overflow);
    RUN(concat_joins_parts_or_writes_nothing);
    RUN(fd_link_names_the_descriptor);
    RUN(escape_bytes_keeps_what_is_not_utf8_and_reads_back);
    RUN(escape_utf8_escapes_as_json_escape_does);
    RUN(escape_utf8_says_whether_the_text_was_utf8);
    RUN(escape_utf8_is_false_when_the_text_does_not_fit);
    RUN(escape_bytes_says_when_it_does_not_fit);
    RUN(bytes_unescape_refuses_a_bad_escape_or_a_nul);
    return check_done();
}
