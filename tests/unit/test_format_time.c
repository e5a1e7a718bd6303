/* Unit tests for rg_format_time (core/text.c): UTC time stamps from
 * nanoseconds, before the epoch and up to INT64_MAX. */
#include <stdint.h>

#include "check.h"
#include "core/text.h"

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

int main(void)
{
    RUN(time_epoch);
    RUN(time_known_timestamp);
    RUN(time_before_epoch);
    RUN(time_leap_day);
    RUN(time_end_of_year);
    RUN(time_int64_max);
    return check_done();
}
