/* One entry's stamp from many threads at once: reads, the session's own
 * writes, scans, the journal's kept mark, appends and a stamper that loses
 * the CPU, racing. Each test checks that the record left is whole: never a
 * stamp paired with another version's bytes; `make tsan` runs them too. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "threads_fixture.h"

/* Writers of a session closing at once: each stamps the one entry with a
 * file state newer than any before it (a shared clock stands in for ctime).
 * Whatever the interleaving, the newest state must be what stays, whole;
 * an older stamp landing last is the session refusing its own next write. */
static _Atomic int64_t clock_ns;

static void *stamp_newer_states(void *arg)
{
    (void)arg;
    struct rg_entry *e = rg_table_find_or_add(&table, 5, 1);
    int64_t seen = 0;
    for (int i = 0; i < ROUNDS * 4 && e; i++) {
        int64_t v = atomic_fetch_add(&clock_ns, 1) + 1;
        struct rg_stamp st = {.mtime_ns = v, .ctime_ns = v, .size = v};
        rg_entry_stamp(&table, e, &st, true, v);
        /* What the entry records never goes back in time. */
        int64_t now = rg_entry_load(&table, e).ctime_ns;
        if (now < seen)
            atomic_fetch_add(&wrong, 1);
        seen = now;
    }
    return NULL;
}

TEST(racing_stamps_leave_the_newest_state_whole)
{
    setup();
    atomic_store(&clock_ns, 0);
    atomic_store(&wrong, 0);
    CHECK_EQ_INT(run_threads(stamp_newer_states), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    struct rg_record r = rg_entry_load(&table, rg_table_find(&table, 5, 1));
    CHECK_EQ_INT(r.ctime_ns, atomic_load(&clock_ns));
    CHECK_EQ_INT(r.mtime_ns, r.ctime_ns);
    CHECK_EQ_INT(r.size, r.ctime_ns);
    teardown();
}

/* Re-reads of a file racing with the session's writes to it: a re-read
 * that hashed the bytes of the stamp it found must not leave that hash on
 * the newer stamp a write put there meanwhile, where it vouches for bytes
 * the file no longer has, and the session's next write is "changed". One
 * thread writes newer states; the others re-read whichever they find, with
 * the hash those bytes would have (hash_of), and check every whole record
 * (stamps even and unmoved around the load) pairs a stamp with its own. */
static _Atomic int writing_done;

static uint32_t hash_of(int64_t mtime) { return (uint32_t)mtime * 2u + 1u; }

static struct rg_record whole_record(struct rg_entry *e)
{
    for (;;) {
        uint32_t before = rg_stamps_of(atomic_load(&e->hash_stamps));
        struct rg_record r = rg_entry_load(&table, e);
        if (!(before & 1u) && rg_stamps_of(atomic_load(&e->hash_stamps)) == before)
            return r;
    }
}

static void *write_or_reread(void *arg)
{
    struct rg_entry *e = rg_table_find_or_add(&table, 6, 1);
    for (int i = 1; i <= ROUNDS * 4 && e && arg == 0; i++) {
        struct rg_stamp st = {.mtime_ns = i, .ctime_ns = i, .size = 1};
        rg_entry_stamp(&table, e, &st, true, i);
    }
    if (arg == 0)
        atomic_store(&writing_done, 1);
    while (e && arg != 0 && !atomic_load(&writing_done)) {
        struct rg_record r = whole_record(e);
        struct rg_stamp st = {.mtime_ns = r.mtime_ns,
                              .ctime_ns = r.ctime_ns,
                              .size = r.size,
                              .hash = hash_of(r.mtime_ns)};
        rg_entry_stamp(&table, e, &st, false, r.mtime_ns);
        r = whole_record(e);
        if (r.hash && r.hash != hash_of(r.mtime_ns))
            atomic_fetch_add(&wrong, 1);
    }
    return NULL;
}

TEST(rereads_racing_with_writes_never_pair_a_stamp_with_older_bytes)
{
    setup();
    atomic_store(&wrong, 0);
    atomic_store(&writing_done, 0);
    CHECK_EQ_INT(run_threads(write_or_reread), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    teardown();
}

/* A scanner (123) records version after version of one file while other
 * threads re-read whatever version they find, each as a look named by that
 * version (VIEW + v), and offer to take the scan over (rg_entry_reread).
 * Between two of its stamps the version is the scanner's last, so a look
 * found there must be of that version: a look of an older one hands the
 * whole session bytes none of it but the scanner read. Nor may a reread's
 * hand-over, met by a stamp, turn the scan into a look. */
#define SCANNER (123u | RG_READER_SCAN)
#define VIEW 1000u

static void *scan_or_take_over(void *arg)
{
    struct rg_entry *e = rg_table_find_or_add(&table, 7, 1);
    for (int v = 1; v <= ROUNDS * 10 && e && arg == 0; v++) {
        struct rg_stamp st = {.mtime_ns = v, .ctime_ns = v, .size = v, .reader = SCANNER};
        rg_entry_stamp(&table, e, &st, false, v);
        for (int look = 0; look < 2; look++) {
            uint32_t r = atomic_load(&e->reader);
            if (r != SCANNER && r != VIEW + (uint32_t)v)
                atomic_fetch_add(&wrong, 1);
        }
    }
    if (arg == 0)
        atomic_store(&writing_done, 1);
    while (e && arg != 0 && !atomic_load(&writing_done)) {
        struct rg_record r = rg_entry_load(&table, e);
        struct rg_stamp st = {.mtime_ns = r.mtime_ns,
                              .ctime_ns = r.ctime_ns,
                              .size = r.size,
                              .reader = VIEW + (uint32_t)r.mtime_ns};
        rg_entry_reread(&table, e, &st);
    }
    return NULL;
}

TEST(rereads_racing_with_a_scanner_take_over_only_the_version_they_read)
{
    setup();
    atomic_store(&wrong, 0);
    atomic_store(&writing_done, 0);
    CHECK_EQ_INT(run_threads(scan_or_take_over), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    teardown();
}

/* The same with the session's own writes: one thread is the scanner, the
 * others restamp the version they find as written by them (VIEW + v). A
 * restamp that found version v - 1 and marked it after the scanner
 * recorded v would make v, which only the scanner read, the session's
 * own: its reader a view of v - 1, or its gen marked written under the
 * scanner's scan. (A scan that met a dropped stamp counts as the
 * scanner's look, 123: stamp().) */
static void *scan_or_own_write(void *arg)
{
    struct rg_entry *e = rg_table_find_or_add(&table, 8, 1);
    for (int v = 1; v <= ROUNDS * 10 && e && arg == 0; v++) {
        struct rg_stamp st = {.mtime_ns = v, .ctime_ns = v, .size = v, .reader = SCANNER};
        rg_entry_stamp(&table, e, &st, false, v);
        for (int look = 0; look < 2; look++) {
            uint32_t gen = atomic_load(&e->gen);
            uint32_t r = atomic_load(&e->reader);
            if ((r >= VIEW && r < RG_READER_SCAN && r != VIEW + (uint32_t)v) ||
                ((gen & RG_GEN_WRITE) && (r & RG_READER_SCAN)))
                atomic_fetch_add(&wrong, 1);
        }
    }
    if (arg == 0)
        atomic_store(&writing_done, 1);
    while (e && arg != 0 && !atomic_load(&writing_done)) {
        struct rg_record r = rg_entry_load(&table, e);
        struct rg_stamp st = {.mtime_ns = r.mtime_ns,
                              .ctime_ns = r.ctime_ns,
                              .size = r.size,
                              .reader = VIEW + (uint32_t)r.mtime_ns};
        /* A load torn by the scanner's stamp is no version anyone wrote. */
        if (r.found && r.mtime_ns == r.ctime_ns && r.size == r.ctime_ns)
            rg_entry_stamp(&table, e, &st, true, r.ctime_ns);
    }
    return NULL;
}

TEST(own_write_restamps_racing_with_a_scanner_mark_only_the_version_they_wrote)
{
    setup();
    atomic_store(&wrong, 0);
    atomic_store(&writing_done, 0);
    CHECK_EQ_INT(run_threads(scan_or_own_write), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    teardown();
}

/* The journal's mark after it kept a version (rg_entry_mark_kept), racing
 * with another's reads: one thread records versions read by a view, the
 * others mark what they find kept, but only the odd versions. A mark that
 * looked at version v - 1 and landed after v was recorded would make v,
 * which nobody kept, the session's own, and the journal would not keep
 * it before the session's next write. */
static _Atomic int markers;

static void *read_or_mark_kept(void *arg)
{
    struct rg_entry *e = rg_table_find_or_add(&table, 9, 1);
    /* The reads begin once every marker is at work. */
    if (arg != 0)
        atomic_fetch_add(&markers, 1);
    while (arg == 0 && atomic_load(&markers) < THREADS - 1)
        sched_yield();
    for (int v = 1; v <= ROUNDS * 1000 && e && arg == 0; v++) {
        struct rg_stamp st = {.mtime_ns = v, .ctime_ns = v, .size = v, .reader = VIEW};
        rg_entry_stamp(&table, e, &st, false, v);
    }
    if (arg == 0)
        atomic_store(&writing_done, 1);
    while (e && arg != 0 && !atomic_load(&writing_done)) {
        struct rg_record r = rg_entry_load(&table, e);
        struct rg_stamp st = {
            .mtime_ns = r.mtime_ns, .ctime_ns = r.ctime_ns, .size = r.size, .reader = VIEW};
        if (r.found && r.mtime_ns % 2 == 1 && r.mtime_ns == r.ctime_ns && r.size == r.ctime_ns)
            rg_entry_mark_kept(&table, e, &st);
        /* A whole record (rg_entry_load's written) of an even version. */
        struct rg_record now = rg_entry_load(&table, e);
        if (now.written && now.mtime_ns % 2 == 0)
            atomic_fetch_add(&wrong, 1);
    }
    return NULL;
}

TEST(kept_marks_racing_with_reads_mark_only_the_version_kept)
{
    setup();
    atomic_store(&wrong, 0);
    atomic_store(&writing_done, 0);
    atomic_store(&markers, 0);
    CHECK_EQ_INT(run_threads(read_or_mark_kept), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    teardown();
}

/* A stamper that lost the CPU while holding the entry (a loaded machine
 * keeps it off for milliseconds) is waited for, not taken over: taken over,
 * it stores its older fields late, over the newer stamp, and the session
 * then refuses its own next write as changed. The holder here takes the
 * stamp lock as rg_stamp_begin does, and keeps it 30 ms, far longer than
 * the yields a stamper spins before it sleeps. */
static _Atomic int held;

static void *hold_then_stamp(void *arg)
{
    struct rg_entry *e = arg;
    atomic_fetch_add(&e->hash_stamps, 1); /* odd: held */
    atomic_store(&held, 1);
    nanosleep(&(struct timespec){0, 30000000}, NULL);
    atomic_store(&e->mtime_ns, 2);
    atomic_store(&e->size, 2);
    atomic_store(&e->ctime_ns, 2);
    atomic_fetch_add(&e->hash_stamps, 1); /* even: released */
    return NULL;
}

TEST(stamper_preempted_mid_stamp_is_waited_for_not_overwritten_late)
{
    setup();
    struct rg_entry *e = rg_table_find_or_add(&table, 6, 1);
    struct rg_stamp old = {.mtime_ns = 1, .ctime_ns = 1, .size = 1};
    struct rg_stamp newer = {.mtime_ns = 3, .ctime_ns = 3, .size = 3};
    rg_entry_stamp(&table, e, &old, true, 1);
    atomic_store(&held, 0);
    pthread_t th;
    CHECK_EQ_INT(pthread_create(&th, NULL, hold_then_stamp, e), 0);
    while (!atomic_load(&held))
        sched_yield();
    CHECK(rg_entry_stamp(&table, e, &newer, true, 3));
    pthread_join(th, NULL);
    struct rg_record r = rg_entry_load(&table, e);
    CHECK_EQ_INT(r.ctime_ns, 3);
    CHECK_EQ_INT(r.size, 3);
    CHECK_EQ_INT(rg_stamps_of(atomic_load(&e->hash_stamps)) & 1u, 0);
    teardown();
}

/* Appenders (--allow-append) racing with a reader on one file: thread 0
 * records reads of even sizes, the others leave append stamps of odd sizes
 * and move them on. An append stamp is never a record: a record loaded
 * whole always has a read's size, and no lock is left held. */
static _Atomic int64_t version;

static void *read_or_append(void *arg)
{
    int t = (int)(long)arg;
    struct rg_entry *e = rg_table_find_or_add(&table, 10, 1);
    for (int i = 0; i < ROUNDS && e; i++) {
        int64_t v = atomic_fetch_add(&version, 2) + 2;
        if (t == 0) {
            struct rg_stamp st = {.mtime_ns = v, .ctime_ns = v, .size = v};
            rg_entry_stamp(&table, e, &st, false, v);
            struct rg_record r = rg_entry_load(&table, e);
            if (r.found && r.mtime_ns == r.size && r.ctime_ns == r.size && (r.size & 1))
                atomic_fetch_add(&wrong, 1);
            continue;
        }
        struct rg_stamp st = {.mtime_ns = v + 1, .ctime_ns = v + 1, .size = v + 1};
        rg_entry_append_begin(e, &st, t);
        /* The reader may record a read at any moment: a record then, but
         * never one of an append stamp's fields. */
        struct rg_record r = rg_entry_load(&table, e);
        if (r.found && (r.size & 1))
            atomic_fetch_add(&wrong, 1);
        struct rg_stamp grown = {.mtime_ns = v + 3, .ctime_ns = v + 3, .size = v + 3};
        rg_entry_append_end(e, &grown, t);
    }
    return NULL;
}

TEST(appenders_racing_with_a_reader_never_make_a_record)
{
    setup();
    atomic_store(&wrong, 0);
    atomic_store(&version, 0);
    CHECK_EQ_INT(run_threads(read_or_append), THREADS);
    CHECK_EQ_INT(atomic_load(&wrong), 0);
    struct rg_entry *e = rg_table_find(&table, 10, 1);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ_INT(rg_stamps_of(atomic_load(&e->hash_stamps)) & 1u, 0);
        struct rg_record r = rg_entry_load(&table, e);
        CHECK(!r.found || !(r.size & 1));
    }
    teardown();
}

int main(void)
{
    RUN(racing_stamps_leave_the_newest_state_whole);
    RUN(rereads_racing_with_writes_never_pair_a_stamp_with_older_bytes);
    RUN(rereads_racing_with_a_scanner_take_over_only_the_version_they_read);
    RUN(own_write_restamps_racing_with_a_scanner_mark_only_the_version_they_wrote);
    RUN(kept_marks_racing_with_reads_mark_only_the_version_kept);
    RUN(stamper_preempted_mid_stamp_is_waited_for_not_overwritten_late);
    RUN(appenders_racing_with_a_reader_never_make_a_record);
    return check_done();
}
