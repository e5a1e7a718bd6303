/* Unit tests for the table's lock-free index (core/table.c): the names
 * reads came by, finding and adding keys, the keys it refuses, a full table. */
#include "table_rooted.h"

TEST(a_noted_name_finds_its_entry)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 5);
    rg_table_name_note(&f.t, 0xabcdef0123456789ull, e);
    CHECK(rg_table_name_find(&f.t, 0xabcdef0123456789ull) == e);
    drop(&f);
}

TEST(a_name_never_noted_finds_nothing)
{
    struct fixture f = make_table(16, false);
    CHECK(rg_table_name_find(&f.t, 0xabcdef0123456789ull) == NULL);
    drop(&f);
}

TEST(another_name_in_the_same_slot_is_not_taken_for_it)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 5);
    rg_table_name_note(&f.t, 0x1111111100000007ull, e);
    /* Same low bits (slot), other high bits: not this name. */
    CHECK(rg_table_name_find(&f.t, 0x2222222200000007ull) == NULL);
    /* And a later note of that name takes the slot over. */
    struct rg_entry *g = rg_table_find_or_add(&f.t, 1, 6);
    rg_table_name_note(&f.t, 0x2222222200000007ull, g);
    CHECK(rg_table_name_find(&f.t, 0x2222222200000007ull) == g);
    CHECK(rg_table_name_find(&f.t, 0x1111111100000007ull) == NULL);
    drop(&f);
}

TEST(a_corrupt_name_slot_points_nowhere)
{
    struct fixture f = make_table(16, false);
    uint64_t key = 0xabcdef0123456789ull;
    rg_table_name_note(&f.t, key, rg_table_find_or_add(&f.t, 1, 1)); /* its page backed */
    /* An entry number past the capacity, with the right key bits. */
    f.t.names[key & (f.t.hdr->index_slots / 2 - 1)] = (key & ~((1ull << 27) - 1)) | 17u;
    CHECK(rg_table_name_find(&f.t, key) == NULL);
    drop(&f);
}

TEST(find_on_empty_table_is_null)
{
    struct fixture f = make_table(16, false);
    CHECK(rg_table_find(&f.t, 1, 2) == NULL);
    CHECK(rg_table_find(&f.t, 0, 0) == NULL);
    CHECK(rg_table_find(&f.t, UINT32_MAX, UINT64_MAX) == NULL);
    drop(&f);
}

TEST(find_or_add_then_find_returns_same_entry)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 8, 42);
    CHECK(e != NULL);
    CHECK(rg_table_find(&f.t, 8, 42) == e);
    if (e) {
        CHECK_EQ_INT(e->dev, 8);
        CHECK_EQ_INT(e->ino, 42);
    }
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 1);
    drop(&f);
}

TEST(find_or_add_of_known_key_adds_nothing)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 8, 42);
    CHECK(rg_table_find_or_add(&f.t, 8, 42) == e);
    CHECK(rg_table_find_or_add(&f.t, 8, 42) == e);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 1);
    drop(&f);
}

TEST(distinct_keys_get_distinct_entries)
{
    struct fixture f = make_table(16, false);
    uint64_t keys[][2] = {{1, 5}, {2, 5}, {1, 6}, {5, 1}, {0, 0}, {UINT32_MAX, UINT64_MAX}};
    enum { N = sizeof keys / sizeof *keys };
    struct rg_entry *e[N] = {NULL};
    for (int i = 0; i < N; i++) {
        e[i] = rg_table_find_or_add(&f.t, keys[i][0], keys[i][1]);
        CHECK(e[i] != NULL);
    }
    for (int i = 0; i < N; i++) {
        CHECK(rg_table_find(&f.t, keys[i][0], keys[i][1]) == e[i]);
        for (int j = 0; j < i; j++)
            CHECK(e[i] != e[j]);
    }
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), N);
    drop(&f);
}

/* A directory's inode numbers run consecutively, and a hostile tree can make
 * a million of them on purpose: sixteen share one line of the index, and
 * the lines must not clump into probes past RG_MAX_PROBE, which would count
 * a table as full long before its capacity. */
static void fill_with_a_run(uint32_t cap, uint64_t first_ino)
{
    struct fixture f = make_table(cap, false);
    uint32_t added = 0;
    for (uint64_t i = 0; i < cap; i++)
        added += rg_table_find_or_add(&f.t, 2049, first_ino + i) != NULL;
    CHECK_EQ_INT(added, cap);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL_NOT);
    uint32_t found = 0;
    for (uint64_t i = 0; i < cap; i++) {
        struct rg_entry *e = rg_table_find(&f.t, 2049, first_ino + i);
        found += e && e->ino == first_ino + i;
    }
    CHECK_EQ_INT(found, cap);
    drop(&f);
}

TEST(a_run_of_consecutive_inodes_fills_the_default_capacity)
{
    fill_with_a_run(RG_DEFAULT_CAPACITY, 1);
}

TEST(a_run_starting_mid_line_fills_a_small_table) { fill_with_a_run(4096, 7); }

TEST(dev_above_32_bits_is_refused)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 7, 9);
    CHECK(rg_table_find_or_add(&f.t, (1ull << 32) | 7, 9) == NULL);
    CHECK(rg_table_find_or_add(&f.t, UINT64_MAX, 1) == NULL);
    /* Not truncated to 32 bits: the low half's entry is not found either. */
    CHECK(rg_table_find(&f.t, (1ull << 32) | 7, 9) == NULL);
    CHECK(rg_table_find(&f.t, 7, 9) == e);
    /* A refused key is not a full table. */
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 1);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL_NOT);
    drop(&f);
}

TEST(dev_of_exactly_32_bits_is_kept)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, UINT32_MAX, 3);
    CHECK(e != NULL);
    CHECK(rg_table_find(&f.t, UINT32_MAX, 3) == e);
    drop(&f);
}

/* Adds keys (3, 1), (3, 2)... until rg_table_find_or_add fails; returns how many fit. */
static uint32_t fill(struct fixture *f)
{
    uint32_t n = 0;
    while (n < 100000 && rg_table_find_or_add(&f->t, 3, n + 1))
        n++;
    return n;
}

TEST(small_table_fills_up_and_sets_full)
{
    struct fixture f = make_table(RG_MIN_CAPACITY, false);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL_NOT);
    CHECK_EQ_INT(fill(&f), RG_MIN_CAPACITY);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL);
    for (uint32_t i = 1; i <= RG_MIN_CAPACITY; i++) {
        struct rg_entry *e = rg_table_find(&f.t, 3, i);
        if (!CHECK(e != NULL))
            continue;
        CHECK_EQ_INT(e->ino, i);
    }
    CHECK(rg_table_find(&f.t, 3, RG_MIN_CAPACITY + 1) == NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), RG_MIN_CAPACITY);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    drop(&f);
}

TEST(full_table_still_finds_and_returns_known_keys)
{
    struct fixture f = make_table(RG_MIN_CAPACITY, false);
    fill(&f);
    struct rg_entry *e = rg_table_find(&f.t, 3, 5);
    CHECK(e != NULL);
    CHECK(rg_table_find_or_add(&f.t, 3, 5) == e);
    CHECK(rg_table_find_or_add(&f.t, 3, 999) == NULL);
    drop(&f);
}

TEST(full_table_stays_valid_after_many_failed_adds)
{
    /* A full table is still used: every read of an untracked file tries to
     * add it. The table must stay attachable however many times that fails. */
    struct fixture f = make_table(RG_MIN_CAPACITY, false);
    fill(&f);
    for (uint32_t i = 0; i < 70000; i++)
        rg_table_find_or_add(&f.t, 4, i + 1);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), RG_MIN_CAPACITY);
    CHECK(rg_table_find_or_add(&f.t, 3, 1) != NULL);
    const char *why = rg_table_validate(f.map, f.size, UID);
    if (!CHECK(why == NULL))
        fprintf(stderr, "#     reason: %s (used %u, capacity %u)\n", why,
                (unsigned)atomic_load(&f.t.hdr->used), (unsigned)f.t.hdr->capacity);
    drop(&f);
}

int main(void)
{
    RUN(a_noted_name_finds_its_entry);
    RUN(a_name_never_noted_finds_nothing);
    RUN(another_name_in_the_same_slot_is_not_taken_for_it);
    RUN(a_corrupt_name_slot_points_nowhere);
    RUN(find_on_empty_table_is_null);
    RUN(find_or_add_then_find_returns_same_entry);
    RUN(find_or_add_of_known_key_adds_nothing);
    RUN(distinct_keys_get_distinct_entries);
    RUN(a_run_of_consecutive_inodes_fills_the_default_capacity);
    RUN(a_run_starting_mid_line_fills_a_small_table);
    RUN(dev_above_32_bits_is_refused);
    RUN(dev_of_exactly_32_bits_is_kept);
    RUN(small_table_fills_up_and_sets_full);
    RUN(full_table_still_finds_and_returns_known_keys);
    RUN(full_table_stays_valid_after_many_failed_adds);
    return check_done();
}
