/* Unit tests for the parsers of core/settings.c: the mode's names and the
 * table's capacity with its suffixes and limits, the journal's sizes. */

#include "check.h"
#include "core/settings.h"

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

TEST(size_parse_suffixes_in_either_case)
{
    CHECK(rg_size_parse("512") == 512);
    CHECK(rg_size_parse("64k") == 64 << 10);
    CHECK(rg_size_parse("64K") == 64 << 10);
    CHECK(rg_size_parse("64m") == 64 << 20);
    CHECK(rg_size_parse("64M") == 64 << 20);
    CHECK(rg_size_parse("2g") == 2LL << 30);
    CHECK(rg_size_parse("2G") == 2LL << 30);
}

TEST(size_parse_rejects_what_is_no_size)
{
    CHECK(rg_size_parse("") == -1);
    CHECK(rg_size_parse("-1M") == -1);
    CHECK(rg_size_parse("500MB") == -1);
    CHECK(rg_size_parse("1.5G") == -1);
    CHECK(rg_size_parse("1T") == -1);
    CHECK(rg_size_parse("M") == -1);
}

/* The limit holds after the suffix: 2^34 + 1 G wrapped to 1 G. */
TEST(size_parse_rejects_suffix_overflow)
{
    CHECK(rg_size_parse("1048576G") == 1LL << 50);
    CHECK(rg_size_parse("1048577G") == -1);
    CHECK(rg_size_parse("8589934592G") == -1);
    CHECK(rg_size_parse("17179869185G") == -1);
    CHECK(rg_size_parse("1099511627777k") == -1);
}

int main(void)
{
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
    RUN(size_parse_suffixes_in_either_case);
    RUN(size_parse_rejects_what_is_no_size);
    RUN(size_parse_rejects_suffix_overflow);
    return check_done();
}
