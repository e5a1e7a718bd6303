/* Unit tests for rg_line_escape (core/text.c): a name on one line of a
 * message, its controls escaped and its other bytes kept as given. */

#include "check.h"
#include "core/text.h"

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

int main(void)
{
    RUN(line_plain_text_and_quotes_are_kept);
    RUN(line_newline_and_tab_are_escaped);
    RUN(line_other_controls_become_hex);
    RUN(line_invalid_utf8_is_kept_as_given);
    RUN(line_small_cap_never_splits_an_escape);
    return check_done();
}
