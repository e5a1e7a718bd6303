/* Concurrent adds from several processes to one shared table (core/table.c):
 * each key is published once, in one entry, whichever process wins. */
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "table_rooted.h"

#define NPROC 4
#define NKEYS 500
#define ROUNDS 32
#define SHARED_DEV 1u
#define OWN_DEV(c) (10u + (unsigned)(c))

struct race {
    _Atomic int go;
    int32_t got[NPROC][2 * NKEYS]; /* entry index each child was given */
};

static int32_t entry_index(const struct rg_table *t, const struct rg_entry *e, uint64_t dev,
                           uint64_t ino)
{
    if (!e)
        return -1;
    if (e->dev != dev || e->ino != ino)
        return -2;
    return (int32_t)(e - t->entries);
}

static void racer(struct rg_table *t, struct race *r, int c)
{
    while (!atomic_load(&r->go))
        sched_yield();
    for (int i = 0; i < NKEYS; i++) {
        /* Half the children walk the shared keys backwards. */
        int k = c % 2 ? NKEYS - 1 - i : i;
        struct rg_entry *e = rg_table_find_or_add(t, SHARED_DEV, 1000 + k);
        r->got[c][k] = entry_index(t, e, SHARED_DEV, 1000 + k);
        e = rg_table_find_or_add(t, OWN_DEV(c), 1000 + i);
        r->got[c][NKEYS + i] = entry_index(t, e, OWN_DEV(c), 1000 + i);
    }
}

/* Distinct keys are numbered: shared 0..NKEYS-1, then NKEYS per child. */
static int key_number(uint64_t dev, uint64_t ino)
{
    if (ino < 1000 || ino >= 1000 + NKEYS)
        return -1;
    if (dev == SHARED_DEV)
        return (int)(ino - 1000);
    if (dev >= OWN_DEV(0) && dev < OWN_DEV(NPROC))
        return NKEYS * (1 + (int)(dev - OWN_DEV(0))) + (int)(ino - 1000);
    return -1;
}

static bool race_round(void)
{
    enum { DISTINCT = NKEYS * (NPROC + 1) };
    int failed_before = check_failed_now;
    struct fixture f = make_table(8192, true);
    struct race *r = map_anon(sizeof *r, true);
    pid_t pids[NPROC];
    for (int c = 0; c < NPROC; c++) {
        pids[c] = fork();
        if (pids[c] == 0) {
            racer(&f.t, r, c);
            _exit(0);
        }
        CHECK(pids[c] > 0);
    }
    atomic_store(&r->go, 1);
    for (int c = 0; c < NPROC; c++) {
        int status = -1;
        if (pids[c] > 0)
            waitpid(pids[c], &status, 0);
        CHECK_EQ_INT(status, 0);
    }

    /* Every child was handed the one published entry of each key. */
    for (int k = 0; k < NKEYS; k++) {
        int32_t want =
            entry_index(&f.t, rg_table_find(&f.t, SHARED_DEV, 1000 + k), SHARED_DEV, 1000 + k);
        CHECK(want >= 0);
        for (int c = 0; c < NPROC; c++)
            if (r->got[c][k] != want)
                CHECK_EQ_INT(r->got[c][k], want);
    }
    for (int c = 0; c < NPROC; c++)
        for (int i = 0; i < NKEYS; i++) {
            int32_t want =
                entry_index(&f.t, rg_table_find(&f.t, OWN_DEV(c), 1000 + i), OWN_DEV(c), 1000 + i);
            CHECK(want >= 0);
            if (r->got[c][NKEYS + i] != want)
                CHECK_EQ_INT(r->got[c][NKEYS + i], want);
        }

    /* The index holds each key exactly once, each in its own entry. */
    static int seen_key[DISTINCT];
    static unsigned char seen_entry[8192];
    memset(seen_key, 0, sizeof seen_key);
    memset(seen_entry, 0, sizeof seen_entry);
    int published = 0;
    for (uint32_t s = 0; s < f.t.hdr->index_slots; s++) {
        uint32_t v = atomic_load(&f.t.index[s]);
        if (v == 0)
            continue;
        published++;
        if (!CHECK(v >= 1 && v <= f.t.hdr->capacity))
            continue;
        CHECK(seen_entry[v - 1]++ == 0);
        int n = key_number(f.t.entries[v - 1].dev, f.t.entries[v - 1].ino);
        if (CHECK(n >= 0))
            seen_key[n]++;
    }
    CHECK_EQ_INT(published, DISTINCT);
    for (int n = 0; n < DISTINCT; n++)
        if (seen_key[n] != 1)
            CHECK_EQ_INT(seen_key[n], 1);

    /* Each lost race wastes at most one entry, and only shared keys race. */
    uint32_t used = atomic_load(&f.t.hdr->used);
    CHECK(used >= DISTINCT);
    CHECK(used <= DISTINCT + (NPROC - 1) * NKEYS);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL_NOT);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    munmap(r, sizeof *r);
    drop(&f);
    return check_failed_now == failed_before;
}

TEST(concurrent_adds_from_processes_publish_each_key_once)
{
    for (int round = 0; round < ROUNDS; round++)
        if (!race_round()) {
            fprintf(stderr, "#   (failed in round %d)\n", round);
            break;
        }
}

int main(void)
{
    RUN(concurrent_adds_from_processes_publish_each_key_once);
    return check_done();
}
