/* Unit tests for the reader an entry names (core/entry.c): a scan's stamp
 * and a view's, which a re-read by another process or a restamp takes
 * over, the downgrade of a process's own views, and the scanners' names in
 * the header. */
#include "check.h"
#include "core/table.h"
#include "table_fixture.h"

static struct fixture make_table(void) { return make_shared_table(16, MAP_PRIVATE); }

static const struct rg_stamp stamp_a = {.mtime_ns = 1000, .ctime_ns = 2000, .size = 10};

#define SCAN RG_READER_SCAN

static uint32_t reader_after(uint32_t first, uint32_t then)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 2);
    struct rg_stamp st = stamp_a;
    st.reader = first;
    rg_entry_stamp(&f.t, e, &st, false, 5000);
    st.reader = then;
    rg_entry_reread(&f.t, e, &st);
    uint32_t r = rg_entry_load(&f.t, e).reader;
    drop(&f);
    return r;
}

/* Entry (1, 2) holding stamp_a, recorded as a scan by reader 123; st is
 * that stamp, for the test to vary. */
static struct rg_entry *scanned(struct fixture *f, struct rg_stamp *st)
{
    struct rg_entry *e = rg_table_find_or_add(&f->t, 1, 2);
    *st = stamp_a;
    st->reader = 123 | SCAN;
    rg_entry_stamp(&f->t, e, st, false, 5000);
    return e;
}

TEST(own_write_restamp_of_the_same_bytes_clears_a_scan)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    st.reader = 0;
    rg_entry_stamp(&f.t, e, &st, true, 6000);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 0);
    drop(&f);
}

TEST(scan_of_a_renamed_file_keeps_the_look_at_its_bytes)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 2);
    struct rg_stamp st = stamp_a;
    st.reader = 0;
    rg_entry_stamp(&f.t, e, &st, true, 5000);
    st.ctime_ns += 100; /* renamed: same bytes, newer ctime */
    st.reader = 123 | SCAN;
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 6000));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 0);
    st.ctime_ns += 100;
    st.mtime_ns += 100; /* new bytes: the scan is all there is */
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 7000));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    drop(&f);
}

TEST(stamp_records_the_reader) { CHECK_EQ_INT(reader_after(123 | SCAN, 123 | SCAN), 123 | SCAN); }

TEST(reread_view_takes_over_a_scan) { CHECK_EQ_INT(reader_after(123 | SCAN, 456), 456); }

TEST(reread_scan_takes_over_another_scan)
{
    CHECK_EQ_INT(reader_after(123 | SCAN, 456 | SCAN), 456 | SCAN);
}

TEST(reread_no_scan_takes_over_a_view_and_two_views_are_the_sessions)
{
    CHECK_EQ_INT(reader_after(123, 456 | SCAN), 123);
    CHECK_EQ_INT(reader_after(123, 456), 0);
    CHECK_EQ_INT(reader_after(0, 456 | SCAN), 0);
}

/* A read that fstat'ed stamp_a, then lost the CPU while the file changed
 * and a scanner (123) recorded the newer bytes: what that read hands the
 * scanner's record to, as calls.c's stamp() does. */
static uint32_t reader_after_older_read(uint32_t older_reader)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 2);
    struct rg_stamp newer = {.mtime_ns = 3000, .ctime_ns = 4000, .size = 11, .reader = 123 | SCAN};
    rg_entry_stamp(&f.t, e, &newer, false, 5000);
    struct rg_stamp older = stamp_a;
    older.reader = older_reader;
    CHECK(!rg_entry_stamp(&f.t, e, &older, false, 6000));
    rg_entry_reread(&f.t, e, &older);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.mtime_ns, newer.mtime_ns);
    drop(&f);
    return r.reader;
}

TEST(view_of_older_bytes_leaves_a_newer_scan_to_its_scanner)
{
    CHECK_EQ_INT(reader_after_older_read(456), 123 | SCAN);
}

TEST(scan_of_older_bytes_leaves_a_newer_scan_to_its_scanner)
{
    CHECK_EQ_INT(reader_after_older_read(456 | SCAN), 123 | SCAN);
}

TEST(reread_of_other_bytes_with_the_same_ctime_takes_nothing)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    st.size++;
    st.reader = 456;
    rg_entry_reread(&f.t, e, &st);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    drop(&f);
}

/* A take-over step by step (mark: 0 for rg_entry_reread's, RG_GEN_WRITE
 * for an own write's restamp): it checked that the entry records the
 * bytes it looked at (seen loaded first), and before it hands the entry
 * over the same scanner (123) records newer bytes, leaving the reader word
 * as the look last saw it. Nothing is taken, nothing marked. */
static void newer_bytes_before_the_take_over(uint32_t mark)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    uint64_t seen = atomic_load(&e->hash_stamps);
    st.reader = 456;
    CHECK(rg_entry_records(&f.t, e, &st));
    struct rg_stamp newer = {.mtime_ns = 3000, .ctime_ns = 4000, .size = 11, .reader = 123 | SCAN};
    CHECK(rg_entry_stamp(&f.t, e, &newer, false, 6000));
    CHECK(!rg_entry_take_over(e, seen, st.reader, mark));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    drop(&f);
}

TEST(take_over_after_the_scanner_recorded_newer_bytes_takes_nothing)
{
    newer_bytes_before_the_take_over(0);
}

TEST(take_over_with_no_stamp_since_hands_the_scan_over_and_frees_the_lock)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    uint64_t seen = atomic_load(&e->hash_stamps);
    CHECK(rg_entry_take_over(e, seen, 456, 0));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 456);
    CHECK(atomic_load(&e->hash_stamps) == seen);
    drop(&f);
}

TEST(take_over_while_a_stamp_is_under_way_takes_nothing)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    uint64_t held = atomic_load(&e->hash_stamps) + 1; /* odd: a stamper is storing */
    atomic_store(&e->hash_stamps, held);
    CHECK(!rg_entry_take_over(e, held, 456, 0));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    CHECK(atomic_load(&e->hash_stamps) == held);
    drop(&f);
}

/* The own write found the bytes it wrote, recorded by a scanner that saw
 * them between the write and the restamp. */
TEST(own_take_over_after_the_scanner_recorded_newer_bytes_marks_nothing)
{
    newer_bytes_before_the_take_over(RG_GEN_WRITE);
}

TEST(own_write_restamp_takes_a_scan_of_its_bytes_over_and_frees_the_lock)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    uint64_t seen = atomic_load(&e->hash_stamps);
    st.reader = 456;
    CHECK(!rg_entry_stamp(&f.t, e, &st, true, 5001));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 456);
    CHECK(atomic_load(&e->gen) & RG_GEN_WRITE);
    CHECK(atomic_load(&e->hash_stamps) == seen);
    drop(&f);
}

/* A read that looked in the middle of the session's own write (a truncate
 * sets the times before the size) hashed the old bytes under the new
 * stamp; the write's restamp of that stamp must not leave the hash to
 * vouch against the session's own bytes. */
TEST(own_write_restamp_of_a_hashed_read_drops_the_hash)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 3);
    struct rg_stamp st = stamp_a;
    st.reader = 123;
    st.hash = 77;
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 5000));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 77);
    st.reader = 0;
    st.hash = 0;
    CHECK(!rg_entry_stamp(&f.t, e, &st, true, 5001));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.hash, 0);
    CHECK(r.written);
    drop(&f);
}

/* Two processes looked at one stamp; the first turns out to be scanning
 * and its views become scans: the second's look must still count. */
TEST(view_re_read_by_another_process_survives_the_first_readers_downgrade)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 4);
    struct rg_stamp st = stamp_a;
    st.reader = 123;
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 5000));
    st.reader = 456;
    CHECK(!rg_entry_stamp(&f.t, e, &st, false, 5001));
    rg_entry_reread(&f.t, e, &st);
    rg_entry_downgrade(e, 123);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 0);
    drop(&f);
}

TEST(own_write_restamp_meeting_a_stamper_that_died_gives_up_and_marks_nothing)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    atomic_fetch_add(&e->hash_stamps, 1);
    st.reader = 456;
    CHECK(!rg_entry_stamp(&f.t, e, &st, true, 5001));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    drop(&f);
}

TEST(reread_meeting_a_stamper_that_died_gives_up_and_takes_nothing)
{
    struct fixture f = make_table();
    struct rg_stamp st;
    struct rg_entry *e = scanned(&f, &st);
    atomic_fetch_add(&e->hash_stamps, 1);
    st.reader = 456;
    rg_entry_reread(&f.t, e, &st);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    drop(&f);
}

TEST(downgrade_turns_own_view_into_a_scan)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 2);
    struct rg_stamp st = stamp_a;
    st.reader = 123;
    rg_entry_stamp(&f.t, e, &st, false, 5000);
    rg_entry_downgrade(e, 123);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 123 | SCAN);
    drop(&f);
}

TEST(downgrade_leaves_another_process_view)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 2);
    struct rg_stamp st = stamp_a;
    st.reader = 456;
    rg_entry_stamp(&f.t, e, &st, false, 5000);
    rg_entry_downgrade(e, 123);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).reader, 456);
    drop(&f);
}

TEST(scanner_names_are_found_by_pid)
{
    struct fixture f = make_table();
    char name[16];
    rg_scanner_note(f.t.hdr, 4321, "a-very-long-program-name");
    rg_scanner_name(f.t.hdr, 4321, name);
    CHECK_EQ_STR(name, "a-very-long-pro");
    rg_scanner_name(f.t.hdr, 4322, name);
    CHECK_EQ_STR(name, "");
    drop(&f);
}

TEST(scanner_name_of_a_pid_that_lost_its_slot_is_empty)
{
    struct fixture f = make_table();
    char name[16];
    rg_scanner_note(f.t.hdr, 7, "grep");
    rg_scanner_note(f.t.hdr, 7 + RG_SCANNERS, "git");
    rg_scanner_name(f.t.hdr, 7, name);
    CHECK_EQ_STR(name, "");
    rg_scanner_name(f.t.hdr, 7 + RG_SCANNERS, name);
    CHECK_EQ_STR(name, "git");
    drop(&f);
}

int main(void)
{
    RUN(stamp_records_the_reader);
    RUN(scan_of_a_renamed_file_keeps_the_look_at_its_bytes);
    RUN(own_write_restamp_of_the_same_bytes_clears_a_scan);
    RUN(reread_view_takes_over_a_scan);
    RUN(reread_scan_takes_over_another_scan);
    RUN(reread_no_scan_takes_over_a_view_and_two_views_are_the_sessions);
    RUN(view_of_older_bytes_leaves_a_newer_scan_to_its_scanner);
    RUN(scan_of_older_bytes_leaves_a_newer_scan_to_its_scanner);
    RUN(reread_of_other_bytes_with_the_same_ctime_takes_nothing);
    RUN(take_over_after_the_scanner_recorded_newer_bytes_takes_nothing);
    RUN(take_over_with_no_stamp_since_hands_the_scan_over_and_frees_the_lock);
    RUN(take_over_while_a_stamp_is_under_way_takes_nothing);
    RUN(own_take_over_after_the_scanner_recorded_newer_bytes_marks_nothing);
    RUN(own_write_restamp_takes_a_scan_of_its_bytes_over_and_frees_the_lock);
    RUN(own_write_restamp_of_a_hashed_read_drops_the_hash);
    RUN(view_re_read_by_another_process_survives_the_first_readers_downgrade);
    RUN(own_write_restamp_meeting_a_stamper_that_died_gives_up_and_marks_nothing);
    RUN(reread_meeting_a_stamper_that_died_gives_up_and_takes_nothing);
    RUN(downgrade_turns_own_view_into_a_scan);
    RUN(downgrade_leaves_another_process_view);
    RUN(scanner_names_are_found_by_pid);
    RUN(scanner_name_of_a_pid_that_lost_its_slot_is_empty);
    return check_done();
}
