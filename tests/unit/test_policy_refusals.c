/* Unit tests for the rest of core/policy.c: the reasons' names, which
 * refusals a second look may clear, and the pauses of the wait for a
 * writer's restamp. */
#include <stdint.h>

#include "check.h"
#include "core/policy.h"

TEST(reason_names)
{
    CHECK_EQ_STR(rg_reason_name(RG_WHY_OK), "ok");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_UNREAD), "unread");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_CHANGED), "changed");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_TABLE_FULL), "table-full");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_NO_TABLE), "no-table");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_EXPIRED), "expired");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_SCANNED), "scanned");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_SEALED), "sealed");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_UNKEPT), "unkept");
    CHECK_EQ_STR(rg_reason_name((enum rg_reason)42), "?");
}

/* A writer of the session in flight may restamp what a scan recorded of
 * its bytes; without one, only the scanner's line may write them. */
TEST(scanned_refusal_may_clear_only_while_a_writer_is_counted)
{
    CHECK(rg_refusal_may_clear(RG_WHY_SCANNED, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_SCANNED, 0));
}

TEST(changed_refusal_may_clear_with_or_without_a_writer)
{
    CHECK(rg_refusal_may_clear(RG_WHY_CHANGED, 0));
    CHECK(rg_refusal_may_clear(RG_WHY_CHANGED, 2));
}

TEST(other_refusals_never_clear_on_a_second_look)
{
    CHECK(!rg_refusal_may_clear(RG_WHY_UNREAD, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_EXPIRED, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_REPLACED, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_SEALED, 1));
}

TEST(restamp_pauses_double_from_a_fifth_of_a_millisecond)
{
    CHECK_EQ_INT(rg_restamp_pause_ns(0), 200000);
    CHECK_EQ_INT(rg_restamp_pause_ns(1), 400000);
    CHECK_EQ_INT(rg_restamp_pause_ns(3), 1600000);
}

TEST(restamp_pauses_never_exceed_a_step)
{
    for (int look = 0; look < 64; look++)
        CHECK(rg_restamp_pause_ns(look) <= RG_RESTAMP_STEP_NS);
    CHECK_EQ_INT(rg_restamp_pause_ns(9), RG_RESTAMP_STEP_NS);
}

/* A writer killed midway never restamps: the wait must end, after most of
 * the budget (a stalled sibling is waited for) and never beyond it. */
TEST(restamp_wait_ends_within_its_budget)
{
    int64_t total = 0;
    int look = 0;
    for (int64_t p; (p = rg_restamp_pause_ns(look)) > 0 && look < 1000; look++)
        total += p;
    CHECK(look < 1000);
    CHECK(total <= RG_RESTAMP_WAIT_NS);
    CHECK(total > RG_RESTAMP_WAIT_NS - RG_RESTAMP_STEP_NS);
    CHECK_EQ_INT(rg_restamp_pause_ns(look + 5), 0);
    CHECK_EQ_INT(rg_restamp_pause_ns(-1), 0);
}
int main(void)
{
    RUN(reason_names);
    RUN(scanned_refusal_may_clear_only_while_a_writer_is_counted);
    RUN(changed_refusal_may_clear_with_or_without_a_writer);
    RUN(other_refusals_never_clear_on_a_second_look);
    RUN(restamp_pauses_double_from_a_fifth_of_a_millisecond);
    RUN(restamp_pauses_never_exceed_a_step);
    RUN(restamp_wait_ends_within_its_budget);
    return check_done();
}
