/* Unit tests for rg_entry_own_settled (core/policy.h): the write-open's
 * shortcut for a file the session wrote answers yes only where the record
 * loaded whole would get the same answer, from rg_decide_head (allowed at
 * its first look) and from the journal's test (written, the same stamp:
 * nothing to keep). */
#include <fcntl.h>

#include "check.h"
#include "core/policy.h"
#include "table_fixture.h"

static struct fixture make_table(void) { return make_shared_table(16, MAP_PRIVATE); }

/* Old enough that a read of it a second later is not racy. */
static const struct rg_stamp own = {.mtime_ns = 7000, .ctime_ns = 7000, .size = 70};
static const int64_t later = 7000 + 20 * RG_TICK_NS;

static bool settled(struct fixture *f, const struct rg_entry *e, const struct rg_stamp *st)
{
    return rg_entry_own_settled(&f->t, e, st);
}

/* The long way, as the write-open asks it when the shortcut says no:
 * the record loaded, rg_decide_head, and rg_journal_owns_as's test of a
 * record with no writer counted. */
static bool judged_own(struct fixture *f, const struct rg_entry *e, const struct rg_stamp *st)
{
    struct rg_file file = {.exists = true,
                           .regular = true,
                           .mtime_ns = st->mtime_ns,
                           .ctime_ns = st->ctime_ns,
                           .size = st->size};
    struct rg_facts facts = {.rec = rg_entry_load(&f->t, e), .table = RG_TABLE_OK};
    struct rg_request req = {.op = RG_OP_OPEN, .flags = O_WRONLY};
    struct rg_decision d;
    enum rg_stamp_match m;
    const struct rg_record *r = &facts.rec;
    return rg_decide_head(&req, &file, &facts, &d, &m) && d.action == RG_ALLOW &&
           rg_record_own_as(r, st->mtime_ns, st->ctime_ns, st->size);
}

/* The shortcut's answer, checked to be one the long way gives too. */
static bool own_settled(struct fixture *f, const struct rg_entry *e, const struct rg_stamp *st)
{
    bool yes = settled(f, e, st);
    CHECK(!yes || judged_own(f, e, st));
    return yes;
}

TEST(own_write_as_it_stands_is_settled)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, later);
    CHECK(own_settled(&f, e, &own));
    CHECK(judged_own(&f, e, &own));
    drop(&f);
}

TEST(read_or_other_bytes_are_not_settled)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    CHECK(!own_settled(&f, e, &own)); /* never recorded */
    rg_entry_stamp(&f.t, e, &own, false, later);
    CHECK(!own_settled(&f, e, &own)); /* a read: the journal keeps it first */
    rg_entry_stamp(&f.t, e, &own, true, later);
    struct rg_stamp grown = own;
    grown.size++;
    CHECK(!own_settled(&f, e, &grown));
    struct rg_stamp touched = own;
    touched.mtime_ns++;
    CHECK(!own_settled(&f, e, &touched));
    struct rg_stamp changed = own;
    changed.ctime_ns++;
    CHECK(!own_settled(&f, e, &changed));
    drop(&f);
}

TEST(scan_reset_and_stamp_under_way_are_not_settled)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_stamp(&f.t, e, &own, true, later);
    atomic_fetch_or(&e->reader, RG_READER_SCAN);
    CHECK(!own_settled(&f, e, &own));
    atomic_fetch_and(&e->reader, ~RG_READER_SCAN);
    CHECK(own_settled(&f, e, &own));
    atomic_fetch_add(&e->hash_stamps, 1); /* a stamp storing its fields */
    CHECK(!own_settled(&f, e, &own));
    CHECK(!judged_own(&f, e, &own));
    atomic_fetch_add(&e->hash_stamps, 1);
    CHECK(own_settled(&f, e, &own));
    atomic_fetch_add(&f.t.hdr->generation, 1);
    CHECK(!own_settled(&f, e, &own));
    CHECK(!judged_own(&f, e, &own));
    drop(&f);
}

/* Bytes the journal kept keep their read's hash: the shortcut takes them
 * unless that hash was taken racily, when the policy asks for the bytes. */
TEST(kept_read_is_settled_unless_its_hash_was_racy)
{
    struct fixture f = make_table();
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp hashed = own;
    hashed.hash = 0x1234;
    rg_entry_stamp(&f.t, e, &hashed, false, later);
    rg_entry_mark_kept(&f.t, e, &hashed);
    CHECK(rg_entry_load(&f.t, e).hash == 0x1234);
    CHECK(own_settled(&f, e, &own));
    CHECK(judged_own(&f, e, &own));

    struct rg_entry *racy = rg_table_find_or_add(&f.t, 1, 2);
    rg_entry_stamp(&f.t, racy, &hashed, false, own.mtime_ns + 1);
    rg_entry_mark_kept(&f.t, racy, &hashed);
    CHECK(rg_entry_load(&f.t, racy).written);
    CHECK(!own_settled(&f, racy, &own));
    CHECK(!judged_own(&f, racy, &own));
    drop(&f);
}

int main(void)
{
    RUN(own_write_as_it_stands_is_settled);
    RUN(read_or_other_bytes_are_not_settled);
    RUN(scan_reset_and_stamp_under_way_are_not_settled);
    RUN(kept_read_is_settled_unless_its_hash_was_racy);
    return check_done();
}
