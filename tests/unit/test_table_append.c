/* Unit tests for the append stamp (core/entry_append.c): what an entry
 * holds for a file --allow-append let a process append to unread, told
 * from a read and a forgotten one, moved on by the appender's let-go only. */
#include "check.h"
#include "core/table.h"
#include "table_fixture.h"

static struct fixture make_table(void) { return make_shared_table(16, MAP_PRIVATE); }

static const struct rg_stamp appended_a = {.mtime_ns = 5000, .ctime_ns = 6000, .size = 100};
static const struct rg_stamp appended_b = {.mtime_ns = 5100, .ctime_ns = 6100, .size = 120};

TEST(append_stamp_is_no_record_of_a_read_or_a_write)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_a, 42);
    CHECK(rg_entry_appended_as(e, &appended_a));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(!r.found);
    CHECK(!r.written);
    CHECK(!rg_entry_records(&f.t, e, &appended_a));
    CHECK(!rg_entry_own_as_is(&f.t, e, &appended_a));
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    rg_table_reset(&f.t);
    CHECK(!rg_entry_load(&f.t, e).found);
    drop(&f);
}

TEST(append_begin_drops_a_read_record)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &appended_a, false, 7001);
    CHECK(rg_entry_load(&f.t, e).found);
    rg_entry_append_begin(e, &appended_a, 42);
    CHECK(!rg_entry_load(&f.t, e).found);
    CHECK(rg_entry_appended_as(e, &appended_a));
    drop(&f);
}

TEST(forgotten_read_is_no_append_stamp)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &appended_a, false, 7001);
    rg_entry_forget(e);
    CHECK(!rg_entry_appended_as(e, &appended_a));
    drop(&f);
}

TEST(append_stamp_is_told_from_a_forgotten_read_and_a_fresh_entry)
{
    struct fixture f = make_table();
    struct rg_entry *a = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_entry *r = rg_table_find_or_add(&f.t, 1, 2);
    struct rg_entry *n = rg_table_find_or_add(&f.t, 1, 3);
    rg_entry_append_begin(a, &appended_a, 42);
    rg_entry_stamp(&f.t, r, &appended_a, false, 7001);
    rg_entry_forget(r);
    CHECK(rg_entry_appended(a));
    CHECK(!rg_entry_appended(r));
    CHECK(!rg_entry_appended(n));
    rg_entry_stamp(&f.t, a, &appended_b, false, 7002); /* read since: a record again */
    CHECK(!rg_entry_appended(a));
    drop(&f);
}

TEST(fresh_entry_is_no_append_stamp)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(!rg_entry_appended_as(e, &(struct rg_stamp){0}));
    drop(&f);
}

TEST(append_stamp_is_of_its_bytes_only)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_a, 42);
    struct rg_stamp other = appended_a;
    other.ctime_ns++;
    CHECK(!rg_entry_appended_as(e, &other));
    other = appended_a;
    other.size++;
    CHECK(!rg_entry_appended_as(e, &other));
    other = appended_a;
    other.mtime_ns++;
    CHECK(!rg_entry_appended_as(e, &other));
    drop(&f);
}

/* A field stored by a stamper taken over mid-stamp: the check fails. */
TEST(torn_append_stamp_is_none)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_a, 42);
    atomic_store(&e->size, appended_b.size);
    struct rg_stamp torn = appended_a;
    torn.size = appended_b.size;
    CHECK(!rg_entry_appended_as(e, &torn));
    CHECK(!rg_entry_appended_as(e, &appended_a));
    drop(&f);
}

TEST(read_after_an_append_stamp_is_a_read_and_ends_it)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_a, 42);
    CHECK(rg_entry_stamp(&f.t, e, &appended_a, false, 7001));
    CHECK(rg_entry_load(&f.t, e).found);
    CHECK(!rg_entry_appended_as(e, &appended_a));
    drop(&f);
}

TEST(append_end_by_the_appender_moves_the_stamp_on)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_a, 42);
    rg_entry_append_end(e, &appended_b, 42);
    CHECK(rg_entry_appended_as(e, &appended_b));
    CHECK(!rg_entry_appended_as(e, &appended_a));
    CHECK(!rg_entry_load(&f.t, e).found);
    CHECK_EQ_INT(rg_stamps_of(atomic_load(&e->hash_stamps)) & 1u, 0);
    drop(&f);
}

TEST(append_end_by_another_process_leaves_the_stamp)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_a, 42);
    rg_entry_append_end(e, &appended_b, 43);
    CHECK(rg_entry_appended_as(e, &appended_a));
    CHECK_EQ_INT(rg_stamps_of(atomic_load(&e->hash_stamps)) & 1u, 0);
    drop(&f);
}

TEST(append_end_of_a_shorter_file_leaves_the_stamp)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_b, 42);
    struct rg_stamp cut = appended_b;
    cut.ctime_ns += 10;
    cut.size = 3;
    rg_entry_append_end(e, &cut, 42);
    CHECK(rg_entry_appended_as(e, &appended_b));
    CHECK(!rg_entry_appended_as(e, &cut));
    drop(&f);
}

TEST(append_end_with_an_older_look_leaves_the_stamp)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp older = appended_b;
    older.ctime_ns = appended_a.ctime_ns - 1;
    rg_entry_append_begin(e, &appended_a, 42);
    rg_entry_append_end(e, &older, 42);
    CHECK(rg_entry_appended_as(e, &appended_a));
    drop(&f);
}

TEST(append_end_on_a_record_changes_nothing)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &appended_a, false, 7001);
    uint64_t word = atomic_load(&e->hash_stamps);
    rg_entry_append_end(e, &appended_b, 42);
    CHECK(rg_entry_records(&f.t, e, &appended_a));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 7001);
    CHECK(atomic_load(&e->hash_stamps) == word);
    drop(&f);
}

TEST(append_end_on_a_forgotten_read_changes_nothing)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &appended_a, false, 7001);
    rg_entry_forget(e);
    rg_entry_append_end(e, &appended_b, 42);
    CHECK(!rg_entry_appended_as(e, &appended_b));
    CHECK(!rg_entry_load(&f.t, e).found);
    drop(&f);
}

TEST(append_begin_keeps_a_newer_stamp)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_append_begin(e, &appended_b, 42);
    rg_entry_append_begin(e, &appended_a, 43);
    CHECK(rg_entry_appended_as(e, &appended_b));
    drop(&f);
}

/* A stamp under way (or a stamper killed mid-stamp): no append stamp is
 * made, the record is dropped all the same, and the lock is left alone. */
TEST(append_begin_while_a_stamp_is_under_way_leaves_no_stamp_and_no_record)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &appended_a, false, 7001);
    uint64_t word = atomic_load(&e->hash_stamps) + 1;
    atomic_store(&e->hash_stamps, word);
    rg_entry_append_begin(e, &appended_a, 42);
    CHECK(!rg_entry_load(&f.t, e).found);
    CHECK(atomic_load(&e->hash_stamps) == word);
    atomic_store(&e->hash_stamps, word + 1);
    CHECK(!rg_entry_appended_as(e, &appended_a));
    drop(&f);
}

TEST(append_check_is_never_zero_and_tells_the_appender)
{
    CHECK(rg_append_check(&(struct rg_stamp){0}, 0) != 0);
    CHECK(rg_append_check(&appended_a, rg_append_mark(1)) !=
          rg_append_check(&appended_a, rg_append_mark(2)));
    CHECK(rg_append_mark(0) < 0);
    CHECK(rg_append_mark(RG_WRITING_PID_MASK) < 0);
}

int main(void)
{
    RUN(append_stamp_is_no_record_of_a_read_or_a_write);
    RUN(append_begin_drops_a_read_record);
    RUN(forgotten_read_is_no_append_stamp);
    RUN(append_stamp_is_told_from_a_forgotten_read_and_a_fresh_entry);
    RUN(fresh_entry_is_no_append_stamp);
    RUN(append_stamp_is_of_its_bytes_only);
    RUN(torn_append_stamp_is_none);
    RUN(read_after_an_append_stamp_is_a_read_and_ends_it);
    RUN(append_end_by_the_appender_moves_the_stamp_on);
    RUN(append_end_by_another_process_leaves_the_stamp);
    RUN(append_end_of_a_shorter_file_leaves_the_stamp);
    RUN(append_end_with_an_older_look_leaves_the_stamp);
    RUN(append_end_on_a_record_changes_nothing);
    RUN(append_end_on_a_forgotten_read_changes_nothing);
    RUN(append_begin_keeps_a_newer_stamp);
    RUN(append_begin_while_a_stamp_is_under_way_leaves_no_stamp_and_no_record);
    RUN(append_check_is_never_zero_and_tells_the_appender);
    return check_done();
}
