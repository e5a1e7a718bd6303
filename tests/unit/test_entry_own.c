/* Unit tests for the session's own writes in an entry (core/entry.c): when
 * the bytes are the session's own, and how reads and own writes that tie
 * within a clock tick are ordered. */
#include "table_rooted.h"

/* A restamp after the session's own write, then a read with the same ctime
 * but other contents: within one timestamp tick of that ctime the read may
 * have raced with the write, and must not roll the entry back. */
static struct rg_stamp own = {.mtime_ns = 7000, .ctime_ns = 7000, .size = 70};
static struct rg_stamp tie = {.mtime_ns = 6999, .ctime_ns = 7000, .size = 69};

TEST(own_write_stamp_is_found)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(rg_entry_stamp(&f.t, e, &own, true, 7001));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 7000);
    CHECK_EQ_INT(r.size, 70);
    drop(&f);
}

/* rg_entry_stamp_clock reads the time only where the stamp needs it. */
static int clock_reads;
static int64_t counting_clock(void)
{
    clock_reads++;
    return 2 * RG_TICK_NS + clock_reads;
}

TEST(restamp_of_an_unchanged_file_reads_no_clock)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, false, 7001);
    clock_reads = 0;
    CHECK(!rg_entry_stamp_clock(&f.t, e, &own, true, counting_clock));
    CHECK_EQ_INT(clock_reads, 0);
    /* What the restamp does without it: the bytes are the session's own. */
    CHECK(atomic_load(&e->gen) & RG_GEN_WRITE);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 7001);
    drop(&f);
}

/* The restamp's shortcut answers yes only where rg_entry_stamp_clock would
 * change nothing: the entry's bytes after it are the same, byte for byte. */
static bool own_as_is_and_stamp_changes_nothing(struct fixture *f, struct rg_entry *e,
                                                const struct rg_stamp *st)
{
    if (!rg_entry_own_as_is(&f->t, e, st))
        return false;
    struct rg_entry was;
    memcpy(&was, e, sizeof was);
    clock_reads = 0;
    bool changed = rg_entry_stamp_clock(&f->t, e, st, true, counting_clock);
    /* The same bytes are what the shortcut promises, so bytes are compared. */
    /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c) */
    return !changed && clock_reads == 0 && memcmp(&was, e, sizeof was) == 0;
}

TEST(own_as_is_holds_for_the_session_own_unchanged_bytes)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    CHECK(own_as_is_and_stamp_changes_nothing(&f, e, &own));
    drop(&f);
}

TEST(own_as_is_fails_where_the_restamp_has_work)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(!rg_entry_own_as_is(&f.t, e, &own)); /* never recorded */
    rg_entry_stamp(&f.t, e, &own, false, 7001);
    CHECK(!rg_entry_own_as_is(&f.t, e, &own)); /* a read's stamp: to be marked */
    rg_entry_stamp(&f.t, e, &own, true, 7002);
    CHECK(!rg_entry_own_as_is(&f.t, e, &tie)); /* other bytes */
    struct rg_stamp hashed = own;
    hashed.hash = 5;
    CHECK(!rg_entry_own_as_is(&f.t, e, &hashed)); /* a hash to put */
    atomic_fetch_or(&e->reader, RG_READER_SCAN);
    CHECK(!rg_entry_own_as_is(&f.t, e, &own)); /* a scan to take over */
    atomic_fetch_and(&e->reader, ~RG_READER_SCAN);
    CHECK(rg_entry_own_as_is(&f.t, e, &own));
    f.t.hdr->read_ttl_ns = 1000;
    CHECK(!rg_entry_own_as_is(&f.t, e, &own)); /* a read TTL to renew */
    f.t.hdr->read_ttl_ns = 0;
    atomic_fetch_add(&f.t.hdr->generation, 1);
    CHECK(!rg_entry_own_as_is(&f.t, e, &own)); /* reset since */
    drop(&f);
}

TEST(restamp_of_a_changed_file_stamps_the_clock_read_once)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &tie, false, 6000);
    clock_reads = 0;
    CHECK(rg_entry_stamp_clock(&f.t, e, &own, true, counting_clock));
    CHECK_EQ_INT(clock_reads, 1);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.mtime_ns, 7000);
    CHECK_EQ_INT(r.read_ns, 2 * RG_TICK_NS + 1);
    drop(&f);
}

TEST(restamp_under_a_read_ttl_reads_the_clock_to_renew)
{
    struct fixture f = make_table(16, false);
    f.t.hdr->read_ttl_ns = 1000;
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, false, 1);
    clock_reads = 0;
    rg_entry_stamp_clock(&f.t, e, &own, true, counting_clock);
    CHECK(clock_reads >= 1);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 2 * RG_TICK_NS + clock_reads);
    drop(&f);
}

TEST(read_tying_with_own_write_within_a_tick_is_dropped)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    CHECK(!rg_entry_stamp(&f.t, e, &tie, false, 7000 + RG_TICK_NS - 1));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 7000);
    CHECK_EQ_INT(r.size, 70);
    CHECK_EQ_INT(r.read_ns, 7001);
    drop(&f);
}

TEST(read_tying_with_own_write_after_a_tick_wins)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    CHECK(rg_entry_stamp(&f.t, e, &tie, false, 7000 + RG_TICK_NS));
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK(r.found);
    CHECK_EQ_INT(r.mtime_ns, 6999);
    CHECK_EQ_INT(r.size, 69);
    /* It is a read's stamp now: another tie replaces it at once. */
    CHECK(rg_entry_stamp(&f.t, e, &own, false, 7002));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).mtime_ns, 7000);
    drop(&f);
}

TEST(read_tying_with_a_read_replaces)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, false, 7001);
    CHECK(rg_entry_stamp(&f.t, e, &tie, false, 7002));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).size, 69);
    drop(&f);
}

TEST(own_write_tying_within_a_tick_replaces)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    CHECK(rg_entry_stamp(&f.t, e, &tie, true, 7002));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).size, 69);
    drop(&f);
}

TEST(own_write_with_older_ctime_is_dropped)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, false, 7001);
    struct rg_stamp old = {.mtime_ns = 1, .ctime_ns = 6999, .size = 1};
    CHECK(!rg_entry_stamp(&f.t, e, &old, true, 7002));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).size, 70);
    drop(&f);
}

/* A sibling's read recorded the stamp of the session's own write before the
 * write's restamp (a rename's carry, a close) got to it: the bytes are still
 * the session's own, which the journal asks. */
TEST(own_write_restamp_over_a_read_of_the_same_stamp_marks_it_own)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(rg_entry_stamp(&f.t, e, &own, false, 7001));
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    CHECK(!rg_entry_stamp(&f.t, e, &own, true, 7002));
    CHECK(atomic_load(&e->gen) & RG_GEN_WRITE);
    CHECK(rg_entry_load(&f.t, e).found);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 7001);
    drop(&f);
}

TEST(read_of_the_same_stamp_leaves_an_own_write_own)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    rg_entry_stamp(&f.t, e, &own, false, 7000 + 2 * RG_TICK_NS);
    CHECK(atomic_load(&e->gen) & RG_GEN_WRITE);
    drop(&f);
}

/* A sibling's rename moved ctime, and its restamp is still to come: a read
 * in between must leave the bytes the session's own, or the journal keeps
 * (and links) them as another's. */
TEST(read_after_an_own_act_moved_ctime_leaves_the_bytes_own)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp moved = own;
    moved.ctime_ns += 5;
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    rg_entry_act_begin(e);
    CHECK(rg_entry_stamp(&f.t, e, &moved, false, 7002));
    CHECK(atomic_load(&e->gen) & RG_GEN_WRITE);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).ctime_ns, moved.ctime_ns);
    drop(&f);
}

TEST(read_after_ctime_moved_with_no_own_act_counted_is_a_read)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp moved = own;
    moved.ctime_ns += 5;
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    CHECK(rg_entry_stamp(&f.t, e, &moved, false, 7002));
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    drop(&f);
}

TEST(read_of_new_bytes_while_an_own_act_is_counted_is_a_read)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp other = own;
    other.ctime_ns += 5;
    other.size += 1;
    rg_entry_stamp(&f.t, e, &own, true, 7001);
    rg_entry_act_begin(e);
    CHECK(rg_entry_stamp(&f.t, e, &other, false, 7002));
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    drop(&f);
}

TEST(read_of_the_same_stamp_does_not_mark_a_read_own)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, false, 7001);
    rg_entry_stamp(&f.t, e, &own, false, 7002);
    CHECK(!(atomic_load(&e->gen) & RG_GEN_WRITE));
    drop(&f);
}

int main(void)
{
    RUN(own_write_stamp_is_found);
    RUN(restamp_of_an_unchanged_file_reads_no_clock);
    RUN(own_as_is_holds_for_the_session_own_unchanged_bytes);
    RUN(own_as_is_fails_where_the_restamp_has_work);
    RUN(restamp_of_a_changed_file_stamps_the_clock_read_once);
    RUN(restamp_under_a_read_ttl_reads_the_clock_to_renew);
    RUN(read_tying_with_own_write_within_a_tick_is_dropped);
    RUN(read_tying_with_own_write_after_a_tick_wins);
    RUN(read_tying_with_a_read_replaces);
    RUN(own_write_tying_within_a_tick_replaces);
    RUN(own_write_with_older_ctime_is_dropped);
    RUN(own_write_restamp_over_a_read_of_the_same_stamp_marks_it_own);
    RUN(read_of_the_same_stamp_leaves_an_own_write_own);
    RUN(read_of_the_same_stamp_does_not_mark_a_read_own);
    RUN(read_after_an_own_act_moved_ctime_leaves_the_bytes_own);
    RUN(read_after_ctime_moved_with_no_own_act_counted_is_a_read);
    RUN(read_of_new_bytes_while_an_own_act_is_counted_is_a_read);
    return check_done();
}
