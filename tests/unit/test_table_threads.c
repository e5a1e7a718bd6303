/* The table from many threads at once: adds, lookups, stamps, loads,
 * forgets, writer counts and resets racing on one mapping. The table is
 * lock-free (C11 atomics); these tests check the counts come out exact, and
 * `make tsan` runs them under ThreadSanitizer to check the memory orders. */
#include <stdatomic.h>

#include "threads_fixture.h"

/* Keys: thread t owns ino (t + 1) << 20 | i; shared keys live on dev 9. */
static uint64_t own_ino(int t, int i) { return ((uint64_t)(t + 1) << 20) | (uint64_t)i; }

static void *add_own_keys(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        struct rg_entry *e = rg_table_find_or_add(&table, 1, own_ino(t, i));
        struct rg_stamp st = {.mtime_ns = i, .ctime_ns = i, .size = t};
        if (!e || !rg_entry_stamp(&table, e, &st, false, 1))
            atomic_fetch_add(&wrong, 1);
        else if (rg_table_find(&table, 1, own_ino(t, i)) != e)
            atomic_fetch_add(&wrong, 1);
    }
    return NULL;
}

TEST(distinct_keys_from_many_threads_each_get_one_entry)
{
    setup();
    CHECK_EQ_INT(run_threads(add_own_keys), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    CHECK_EQ_INT(atomic_load(&table.hdr->used), THREADS * PER_THREAD);
    CHECK_EQ_INT(atomic_load(&table.hdr->full), RG_FULL_NOT);
    int bad = 0;
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < PER_THREAD; i++) {
            struct rg_record r = rg_entry_load(&table, rg_table_find(&table, 1, own_ino(t, i)));
            bad += !r.found || r.mtime_ns != i || r.size != t;
        }
    CHECK_EQ_INT(bad, 0);
    teardown();
}

/* Every thread adds, stamps, loads, forgets and counts writers on the same
 * few keys: the races the index and the entries must survive. */
static void *hammer_shared(void *arg)
{
    int t = (int)(long)arg;
    unsigned seed = (unsigned)t * 2654435761u;
    for (int i = 0; i < ROUNDS; i++) {
        seed = seed * 1103515245u + 12345u;
        uint64_t ino = (seed >> 8) % SHARED;
        struct rg_entry *e = rg_table_find_or_add(&table, 9, ino);
        if (!e || e->ino != ino || e->dev != 9) {
            atomic_fetch_add(&wrong, 1);
            continue;
        }
        struct rg_stamp st = {.mtime_ns = i, .ctime_ns = i, .size = (int64_t)ino};
        switch (seed >> 28 & 7) {
        case 0: rg_entry_forget(e); break;
        case 1:
            rg_entry_writer_open(e, t + 100);
            rg_entry_writer_close(e);
            break;
        case 2: rg_entry_stamp(&table, e, &st, true, i); break;
        default: rg_entry_stamp(&table, e, &st, false, i); break;
        }
        struct rg_record r = rg_entry_load(&table, rg_table_find(&table, 9, ino));
        /* Every stamp of this key carried size == ino. */
        if (r.found && r.size != (int64_t)ino)
            atomic_fetch_add(&wrong, 1);
    }
    return NULL;
}

TEST(shared_keys_hammered_from_many_threads_stay_consistent)
{
    setup();
    atomic_store(&wrong, 0);
    CHECK_EQ_INT(run_threads(hammer_shared), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    /* Racing adds of one key may each claim an entry; only one is published,
     * so a key never has two entries, and the losers stay unused. */
    uint32_t used = atomic_load(&table.hdr->used);
    CHECK(used >= SHARED && used <= SHARED * THREADS);
    int missing = 0, busy = 0;
    for (uint64_t ino = 0; ino < SHARED; ino++) {
        struct rg_entry *e = rg_table_find(&table, 9, ino);
        missing += !e;
        busy += e && rg_entry_load(&table, e).writers != 0;
    }
    CHECK_EQ_INT(missing, 0);
    CHECK_EQ_INT(busy, 0); /* every rg_entry_writer_open was matched by a close */
    teardown();
}

/* One thread resets while the others record: nothing crashes, and after the
 * last reset a fresh stamp is found again. */
static void *reset_or_record(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        if (t == 0) {
            if (i % 16 == 0)
                rg_table_reset(&table);
            continue;
        }
        struct rg_entry *e = rg_table_find_or_add(&table, 7, (uint64_t)(i % SHARED));
        struct rg_stamp st = {.mtime_ns = i, .ctime_ns = i, .size = 1};
        if (!e)
            atomic_fetch_add(&wrong, 1);
        else
            rg_entry_stamp(&table, e, &st, false, i);
    }
    return NULL;
}

TEST(resets_racing_with_records_leave_a_usable_table)
{
    setup();
    atomic_store(&wrong, 0);
    uint32_t gen0 = atomic_load(&table.hdr->generation);
    CHECK_EQ_INT(run_threads(reset_or_record), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    CHECK(atomic_load(&table.hdr->generation) != gen0);
    rg_table_reset(&table);
    struct rg_entry *e = rg_table_find_or_add(&table, 7, 1);
    struct rg_stamp st = {.mtime_ns = 1 << 30, .ctime_ns = 1 << 30, .size = 5};
    CHECK(e && rg_entry_stamp(&table, e, &st, false, 1));
    CHECK(rg_entry_load(&table, e).found);
    CHECK(rg_table_validate(map, map_size, 1) == NULL);
    teardown();
}

int main(void)
{
    RUN(distinct_keys_from_many_threads_each_get_one_entry);
    RUN(shared_keys_hammered_from_many_threads_stay_consistent);
    RUN(resets_racing_with_records_leave_a_usable_table);
    return check_done();
}
