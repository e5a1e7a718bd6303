/* Unit tests for idmap.c: reading a uid_map. */
#include "check.h"
#include "core/idmap.h"

static uint32_t out;

TEST(unshare_r_maps_root_inside_to_the_user_outside)
{
    CHECK(rg_idmap_outside("         0      65534          1\n", 0, &out));
    CHECK_EQ_INT(out, 65534);
}

TEST(an_id_no_line_maps_is_not_translated)
{
    CHECK(!rg_idmap_outside("         0      65534          1\n", 1, &out));
}

TEST(the_identity_map_gives_the_id_back)
{
    CHECK(rg_idmap_outside("         0          0 4294967295\n", 1000, &out));
    CHECK_EQ_INT(out, 1000);
}

TEST(a_range_maps_by_offset_on_a_later_line)
{
    CHECK(rg_idmap_outside("0 1000 1\n1 100000 65536\n", 42, &out));
    CHECK_EQ_INT(out, 100041);
}

TEST(the_last_id_of_a_range_is_in_it_and_the_next_is_not)
{
    CHECK(rg_idmap_outside("10 500 5\n", 14, &out));
    CHECK_EQ_INT(out, 504);
    CHECK(!rg_idmap_outside("10 500 5\n", 15, &out));
}

TEST(text_that_is_not_a_uid_map_translates_nothing)
{
    CHECK(!rg_idmap_outside("", 0, &out));
    CHECK(!rg_idmap_outside("0 65534\n", 0, &out));
    CHECK(!rg_idmap_outside("zero 65534 1\n", 0, &out));
    CHECK(!rg_idmap_outside("0 99999999999 1\n", 0, &out));
    CHECK(!rg_idmap_outside("5 6 1 junk\n0 65534 1\n", 0, &out));
}

int main(void)
{
    RUN(unshare_r_maps_root_inside_to_the_user_outside);
    RUN(an_id_no_line_maps_is_not_translated);
    RUN(the_identity_map_gives_the_id_back);
    RUN(a_range_maps_by_offset_on_a_later_line);
    RUN(the_last_id_of_a_range_is_in_it_and_the_next_is_not);
    RUN(text_that_is_not_a_uid_map_translates_nothing);
    return check_done();
}
