/* Unit tests for an entry's stamp (core/entry.c): what a read records,
 * which stamp wins when reads of one file race, and the stamp lock. */
#include "table_rooted.h"

TEST(stamp_then_load_is_found_with_values)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(rg_entry_stamp(&f.t, e, &stamp_a, false, 555));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 1000);
    CHECK_EQ_INT(r.size, 10);
    CHECK_EQ_INT(r.read_ns, 555);
    CHECK_EQ_INT(r.writers, 0);
    CHECK_EQ_INT(atomic_load(&e->ctime_ns), 2000);
    drop(&f);
}

TEST(stamp_left_half_written_by_a_killed_stamper_is_taken_over)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    atomic_store(&e->hash_stamps, 7); /* odd: a stamper died holding it */
    CHECK(rg_entry_stamp(&f.t, e, &stamp_a, false, 555));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).mtime_ns, 1000);
    CHECK_EQ_INT(rg_stamps_of(atomic_load(&e->hash_stamps)) & 1u, 0);
    drop(&f);
}

/* A stamper preempted between its fields and its gen (entry.c stores gen
 * last) leaves the last stamp's own-write mark beside another's stamp: a
 * read of bytes someone else wrote, which the journal must keep. */
TEST(own_write_mark_is_not_believed_while_a_stamp_is_under_way)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(rg_entry_stamp(&f.t, e, &stamp_a, true, 555));
    CHECK(rg_entry_load(&f.t, e).written);
    uint64_t held = atomic_load(&e->hash_stamps) + 1; /* rg_stamp_begin's odd count */
    atomic_store(&e->hash_stamps, held);
    atomic_store(&e->mtime_ns, 3000);
    atomic_store(&e->size, 20);
    atomic_store(&e->ctime_ns, 4000);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.mtime_ns, 3000);
    CHECK(!r.written);
    drop(&f);
}

TEST(every_full_stamp_leaves_the_lock_free)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp later = stamp_a;
    later.ctime_ns++;
    CHECK(rg_entry_stamp(&f.t, e, &stamp_a, false, 555));
    CHECK(rg_entry_stamp(&f.t, e, &later, true, 556));
    CHECK_EQ_INT(rg_stamps_of(atomic_load(&e->hash_stamps)), 4);
    drop(&f);
}

TEST(new_entry_is_not_found_until_stamped)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(!rg_entry_load(&f.t, e).found);
    drop(&f);
}

TEST(load_of_null_entry_is_not_found)
{
    struct fixture f = make_table(16, false);
    struct rg_record r = rg_entry_load(&f.t, NULL);
    CHECK(!r.found);
    CHECK_EQ_INT(r.mtime_ns, 0);
    CHECK_EQ_INT(r.writers, 0);
    drop(&f);
}

TEST(restamp_of_unchanged_file_changes_nothing)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 555);
    CHECK(!rg_entry_stamp(&f.t, e, &stamp_a, false, 999));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 555);
    drop(&f);
}

TEST(entry_holds_only_its_own_stamp_in_the_current_generation)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(!rg_entry_holds(&f.t, e, &stamp_a)); /* never stamped */
    rg_entry_stamp(&f.t, e, &stamp_a, false, 555);
    CHECK(rg_entry_holds(&f.t, e, &stamp_a));
    struct rg_stamp other = stamp_a;
    other.size++;
    CHECK(!rg_entry_holds(&f.t, e, &other));
    other = stamp_a;
    other.mtime_ns++;
    CHECK(!rg_entry_holds(&f.t, e, &other));
    other = stamp_a;
    other.ctime_ns++;
    CHECK(!rg_entry_holds(&f.t, e, &other));
    rg_table_reset(&f.t);
    CHECK(!rg_entry_holds(&f.t, e, &stamp_a));
    drop(&f);
}

TEST(entry_never_holds_a_stamp_a_read_ttl_must_renew)
{
    struct fixture f = make_table(16, false);
    f.t.hdr->read_ttl_ns = 1000;
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 555);
    CHECK(!rg_entry_holds(&f.t, e, &stamp_a));
    drop(&f);
}

/* A scan's record is unchanged to a re-read (whose stamp would write
 * nothing), but not held: a look or a write takes a scan over. */
TEST(a_scanned_stamp_is_unchanged_but_not_held)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp scanned = stamp_a;
    scanned.reader = 77 | RG_READER_SCAN;
    rg_entry_stamp(&f.t, e, &scanned, false, 555);
    CHECK(!rg_entry_holds(&f.t, e, &stamp_a));
    CHECK(rg_entry_unchanged(&f.t, e, &stamp_a));
    struct rg_stamp other = stamp_a;
    other.mtime_ns++;
    CHECK(!rg_entry_unchanged(&f.t, e, &other));
    CHECK(!rg_entry_stamp(&f.t, e, &scanned, false, 999));
    drop(&f);
}

TEST(stamp_with_older_ctime_is_dropped)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 555);
    struct rg_stamp old = {.mtime_ns = 900, .ctime_ns = 1999, .size = 3};
    CHECK(!rg_entry_stamp(&f.t, e, &old, false, 999));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 1000);
    CHECK_EQ_INT(r.size, 10);
    CHECK_EQ_INT(r.read_ns, 555);
    drop(&f);
}

TEST(stamp_with_newer_ctime_replaces)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 555);
    struct rg_stamp now = {.mtime_ns = 3000, .ctime_ns = 3000, .size = 11};
    CHECK(rg_entry_stamp(&f.t, e, &now, false, 999));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 3000);
    CHECK_EQ_INT(r.size, 11);
    CHECK_EQ_INT(r.read_ns, 999);
    drop(&f);
}

TEST(stamp_with_same_ctime_and_new_size_replaces)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &stamp_a, false, 555);
    struct rg_stamp now = stamp_a;
    now.size = 12;
    CHECK(rg_entry_stamp(&f.t, e, &now, false, 999));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).size, 12);
    drop(&f);
}

int main(void)
{
    RUN(stamp_left_half_written_by_a_killed_stamper_is_taken_over);
    RUN(own_write_mark_is_not_believed_while_a_stamp_is_under_way);
    RUN(every_full_stamp_leaves_the_lock_free);
    RUN(stamp_then_load_is_found_with_values);
    RUN(new_entry_is_not_found_until_stamped);
    RUN(load_of_null_entry_is_not_found);
    RUN(restamp_of_unchanged_file_changes_nothing);
    RUN(entry_holds_only_its_own_stamp_in_the_current_generation);
    RUN(entry_never_holds_a_stamp_a_read_ttl_must_renew);
    RUN(a_scanned_stamp_is_unchanged_but_not_held);
    RUN(stamp_with_older_ctime_is_dropped);
    RUN(stamp_with_newer_ctime_replaces);
    RUN(stamp_with_same_ctime_and_new_size_replaces);
    return check_done();
}
