/* Unit tests for forgetting reads (core/entry.c, core/table.c): a reset
 * starts a new generation, a forget drops one entry's read. */
#include "table_rooted.h"

TEST(reset_forgets_every_read)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *a = rg_table_find_or_add(&f.t, 1, 1), *b = rg_table_find_or_add(&f.t, 1, 2);
    rg_entry_stamp(&f.t, a, &stamp_a, false, 1);
    rg_entry_stamp(&f.t, b, &stamp_a, false, 1);
    rg_table_reset(&f.t);
    CHECK(!rg_entry_load(&f.t, a).found);
    CHECK(!rg_entry_load(&f.t, b).found);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->generation), 2);
    /* The entries themselves stay: only the reads are forgotten. */
    CHECK(rg_table_find(&f.t, 1, 1) == a);
    drop(&f);
}

TEST(stamp_after_reset_is_found_again)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 1);
    rg_table_reset(&f.t);
    CHECK(rg_entry_stamp(&f.t, e, &stamp_a, false, 2));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.read_ns, 2);
    drop(&f);
}

TEST(stamp_after_reset_accepts_older_ctime)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 1);
    rg_table_reset(&f.t);
    struct rg_stamp old = {.mtime_ns = 5, .ctime_ns = 5, .size = 5};
    CHECK(rg_entry_stamp(&f.t, e, &old, false, 2));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 5);
    drop(&f);
}

TEST(reset_skips_generation_zero)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    atomic_store(&f.t.hdr->generation, RG_GEN_MASK);
    rg_entry_stamp(&f.t, e, &stamp_a, true, 1);
    CHECK(rg_entry_load(&f.t, e).found);
    rg_table_reset(&f.t);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->generation), 1);
    CHECK(!rg_entry_load(&f.t, e).found);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    CHECK(rg_entry_stamp(&f.t, e, &stamp_a, false, 2));
    CHECK(rg_entry_load(&f.t, e).found);
    drop(&f);
}

TEST(forget_makes_the_entry_unread)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *a = rg_table_find_or_add(&f.t, 1, 1), *b = rg_table_find_or_add(&f.t, 1, 2);
    rg_entry_stamp(&f.t, a, &stamp_a, false, 1);
    rg_entry_stamp(&f.t, b, &stamp_a, false, 1);
    rg_entry_forget(a);
    CHECK(!rg_entry_load(&f.t, a).found);
    CHECK(rg_entry_load(&f.t, b).found);
    CHECK(rg_table_find(&f.t, 1, 1) == a);
    /* The same stamp records it again: forgetting is not a ctime barrier. */
    CHECK(rg_entry_stamp(&f.t, a, &stamp_a, false, 2));
    CHECK(rg_entry_load(&f.t, a).found);
    drop(&f);
}

int main(void)
{
    RUN(reset_forgets_every_read);
    RUN(stamp_after_reset_is_found_again);
    RUN(stamp_after_reset_accepts_older_ctime);
    RUN(reset_skips_generation_zero);
    RUN(forget_makes_the_entry_unread);
    return check_done();
}
