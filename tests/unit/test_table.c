/* Unit tests for core/table.c and core/entry.c: format and validation, the
 * names reads came by, the lock-free index, stamps, generations, writer
 * counts, content hashes, a full table, the roots, and concurrent adds from
 * several processes. The append stamp and the readers' scans have files of
 * their own (test_table_append.c, test_table_scans.c). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/table.h"
#define UID 4242u
#define LOG "/var/log/rg-test.log"

static const char *const roots_ab[] = {"/a", "/b"};

/* A table in its own anonymous mapping: page-aligned, as a real one is. */
struct fixture {
    struct rg_table t;
    void *map;
    size_t size;
};

static void *map_anon(size_t size, bool shared)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("# mmap");
        exit(2);
    }
    return p;
}

static struct fixture make_table(uint32_t cap, bool shared)
{
    struct fixture f = {.size = rg_table_file_size(cap)};
    f.map = map_anon(f.size, shared);
    struct rg_settings s = {
        .mode = RG_MODE_WARN, .capacity = cap, .log_path = LOG, .roots = roots_ab, .nroots = 2};
    int r = rg_table_format(f.map, f.size, &s, UID, 77, 123456789);
    if (r != 0 || rg_table_validate(f.map, f.size, UID) != NULL) {
        fprintf(stderr, "# cannot set up a table: %d\n", r);
        exit(2);
    }
    rg_table_bind(&f.t, f.map, f.size);
    return f;
}

static void drop(struct fixture *f) { munmap(f->map, f->size); }

#define CHECK_REASON(why, want)                                                   \
    do {                                                                          \
        const char *why_ = (why);                                                 \
        if (!CHECK(why_ && strstr(why_, want)))                                   \
            fprintf(stderr, "#     reason: %s\n", why_ ? why_ : "(null: valid)"); \
    } while (0)

static const struct rg_stamp stamp_a = {.mtime_ns = 1000, .ctime_ns = 2000, .size = 10};

/* --- format and validate -------------------------------------------------- */

TEST(file_size_is_header_index_entries_and_names)
{
    /* And a page for the page map, which holds a bit per page of index or names. */
    CHECK_EQ_INT(rg_table_file_size(16), RG_HEADER_SIZE + 1024 * 4 + 16 * 64 + 512 * 8 + 4096);
    CHECK_EQ_INT(rg_table_file_size(512), RG_HEADER_SIZE + 1024 * 4 + 512 * 64 + 512 * 8 + 4096);
    CHECK_EQ_INT(rg_table_file_size(513), RG_HEADER_SIZE + 2048 * 4 + 513 * 64 + 1024 * 8 + 4096);
}

TEST(format_then_validate_is_ok)
{
    struct fixture f = make_table(16, false);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    drop(&f);
}

TEST(format_stores_the_settings)
{
    struct fixture f = make_table(1000, false);
    struct rg_header *h = f.t.hdr;
    CHECK(memcmp(h->magic, RG_MAGIC, 8) == 0);
    CHECK_EQ_INT(h->version, RG_TABLE_VERSION);
    CHECK_EQ_INT(h->header_size, RG_HEADER_SIZE);
    CHECK_EQ_INT(h->file_size, f.size);
    CHECK_EQ_INT(h->entry_size, sizeof(struct rg_entry));
    CHECK_EQ_INT(h->capacity, 1000);
    CHECK_EQ_INT(h->index_slots, 2048);
    CHECK_EQ_INT(h->uid, UID);
    CHECK_EQ_INT(h->creator_pid, 77);
    CHECK_EQ_INT(h->mode, RG_MODE_WARN);
    CHECK_EQ_INT(h->created_ns, 123456789);
    CHECK_EQ_INT(h->nroots, 2);
    CHECK_EQ_STR(h->log_path, LOG);
    CHECK_EQ_INT(atomic_load(&h->generation), 1);
    CHECK_EQ_INT(atomic_load(&h->used), 0);
    CHECK_EQ_INT(atomic_load(&h->full), 0);
    drop(&f);
}

TEST(format_without_log_path_leaves_it_empty)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = NULL, .roots = roots_ab, .nroots = 2};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    CHECK_EQ_STR(((struct rg_header *)map)->log_path, "");
    CHECK(rg_table_validate(map, size, UID) == NULL);
    munmap(map, size);
}

TEST(format_rejects_bad_capacity)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    uint32_t bad[] = {0, RG_MIN_CAPACITY - 1, RG_MAX_CAPACITY + 1, UINT32_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct rg_settings s = {.mode = RG_MODE_ENFORCE,
                                .capacity = bad[i],
                                .log_path = LOG,
                                .roots = roots_ab,
                                .nroots = 2};
        CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), -EINVAL);
    }
    CHECK(memcmp(map, RG_MAGIC, 8) != 0);
    munmap(map, size);
}

TEST(format_rejects_size_that_does_not_match_capacity)
{
    size_t size = rg_table_file_size(32);
    void *map = map_anon(size, false);
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = roots_ab, .nroots = 2};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), -EINVAL);
    CHECK(memcmp(map, RG_MAGIC, 8) != 0);
    munmap(map, size);
}

TEST(format_rejects_roots_too_long)
{
    size_t size = rg_table_file_size(16);
    char *big = malloc(RG_ROOTS_MAX + 1);
    memset(big, 'x', RG_ROOTS_MAX);
    big[0] = '/';
    big[RG_ROOTS_MAX] = '\0'; /* 8192 characters + NUL */
    const char *one[] = {big}, *two[] = {"/a", big + 2};
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = one, .nroots = 1};
    void *map = map_anon(size, false);
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), -ENAMETOOLONG);
    CHECK(memcmp(map, RG_MAGIC, 8) != 0);
    munmap(map, size);

    /* "/a\0" + 8190 characters + NUL is 8194 bytes: two too many. */
    big[2] = '/';
    s.roots = two, s.nroots = 2;
    map = map_anon(size, false);
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), -ENAMETOOLONG);
    munmap(map, size);

    /* Exactly full: 8191 characters + NUL. */
    big[RG_ROOTS_MAX - 1] = '\0';
    s.roots = one, s.nroots = 1;
    map = map_anon(size, false);
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    CHECK(rg_table_validate(map, size, UID) == NULL);
    CHECK_EQ_INT(strlen(((struct rg_header *)map)->roots), RG_ROOTS_MAX - 1);
    munmap(map, size);
    free(big);
}

TEST(format_rejects_log_path_too_long)
{
    size_t size = rg_table_file_size(16);
    char *log = malloc(RG_LOG_PATH_MAX + 1);
    memset(log, 'l', RG_LOG_PATH_MAX);
    log[0] = '/';
    log[RG_LOG_PATH_MAX] = '\0';
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = log, .roots = roots_ab, .nroots = 2};
    void *map = map_anon(size, false);
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), -ENAMETOOLONG);
    munmap(map, size);

    log[RG_LOG_PATH_MAX - 1] = '\0';
    map = map_anon(size, false);
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    CHECK_EQ_STR(((struct rg_header *)map)->log_path, log);
    munmap(map, size);
    free(log);
}

/* A valid table, corrupted by the caller, then validated at size + delta. */
static struct fixture good_copy(void)
{
    static struct fixture good;
    if (!good.map)
        good = make_table(16, false);
    struct fixture f = good;
    f.map = map_anon(f.size, false);
    memcpy(f.map, good.map, f.size);
    rg_table_bind(&f.t, f.map, f.size);
    return f;
}

TEST(validate_rejects_too_small)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, RG_HEADER_SIZE - 1, UID), "too small");
    CHECK_REASON(rg_table_validate(f.map, 0, UID), "too small");
    drop(&f);
}

TEST(validate_rejects_wrong_magic)
{
    struct fixture f = good_copy();
    f.t.hdr->magic[7] ^= 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "wrong magic");
    drop(&f);
}

TEST(a_new_table_is_owned_by_its_creator)
{
    struct fixture f = make_table(16, false);
    CHECK_EQ_INT(rg_header_owner(f.t.hdr), 77);
    drop(&f);
}

TEST(a_take_over_moves_the_owner_and_keeps_the_creator)
{
    struct fixture f = make_table(16, false);
    atomic_store(&f.t.hdr->owner_pid, 88);
    CHECK_EQ_INT(rg_header_owner(f.t.hdr), 88);
    CHECK_EQ_INT(f.t.hdr->creator_pid, 77);
    drop(&f);
}

TEST(a_table_of_another_version_is_owned_by_its_creator_pid)
{
    struct fixture f = make_table(16, false);
    f.t.hdr->version = RG_TABLE_VERSION - 1;
    atomic_store(&f.t.hdr->owner_pid, 0); /* padding in that version */
    CHECK_EQ_INT(rg_header_owner(f.t.hdr), 77);
    drop(&f);
}

TEST(validate_rejects_other_version)
{
    struct fixture f = good_copy();
    f.t.hdr->version = RG_TABLE_VERSION + 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "another version");
    drop(&f);
}

TEST(validate_rejects_other_entry_size)
{
    struct fixture f = good_copy();
    f.t.hdr->entry_size = 48;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "another version");
    drop(&f);
}

TEST(validate_rejects_other_header_size)
{
    struct fixture f = good_copy();
    f.t.hdr->header_size = RG_HEADER_SIZE * 2;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "another version");
    drop(&f);
}

TEST(validate_rejects_wrong_uid)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, f.size, UID + 1), "another user");
    CHECK_REASON(rg_table_validate(f.map, f.size, 0), "another user");
    drop(&f);
}

TEST(validate_rejects_truncated_size)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, f.size - 1, UID), "truncated");
    CHECK_REASON(rg_table_validate(f.map, RG_HEADER_SIZE, UID), "truncated");
    drop(&f);
}

TEST(validate_rejects_padded_size)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, f.size + 4096, UID), "padded");
    drop(&f);
}

TEST(validate_rejects_file_size_mismatch)
{
    struct fixture f = good_copy();
    f.t.hdr->file_size += sizeof(struct rg_entry);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    /* Even when the mapping agrees with the header's wrong size. */
    CHECK_REASON(rg_table_validate(f.map, f.size + sizeof(struct rg_entry), UID), "sizes disagree");
    drop(&f);
}

TEST(validate_rejects_capacity_out_of_range)
{
    struct fixture f = good_copy();
    f.t.hdr->capacity = RG_MIN_CAPACITY - 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    f.t.hdr->capacity = RG_MAX_CAPACITY * 2;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    drop(&f);
}

TEST(validate_rejects_wrong_index_slots)
{
    struct fixture f = good_copy();
    f.t.hdr->index_slots = 512;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    drop(&f);
}

TEST(validate_rejects_mode_out_of_range)
{
    struct fixture f = good_copy();
    f.t.hdr->mode = RG_MODE_WARN + 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    f.t.hdr->mode = UINT32_MAX;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_unterminated_roots)
{
    struct fixture f = good_copy();
    memset(f.t.hdr->roots, '/', sizeof f.t.hdr->roots);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_relative_root)
{
    struct fixture f = good_copy();
    CHECK_EQ_STR(f.t.hdr->roots + 3, "/b");
    f.t.hdr->roots[3] = 'b'; /* "/a\0bb\0" */
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_more_roots_than_stored)
{
    struct fixture f = good_copy();
    f.t.hdr->nroots = 3;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    f.t.hdr->nroots = UINT32_MAX;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_unterminated_log_path)
{
    struct fixture f = good_copy();
    memset(f.t.hdr->log_path, 'x', sizeof f.t.hdr->log_path);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_generation_zero)
{
    struct fixture f = good_copy();
    atomic_store(&f.t.hdr->generation, 0);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "counters are corrupt");
    drop(&f);
}

TEST(validate_rejects_used_beyond_capacity)
{
    struct fixture f = good_copy();
    atomic_store(&f.t.hdr->backed, f.t.hdr->capacity);
    atomic_store(&f.t.hdr->used, f.t.hdr->capacity);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    atomic_store(&f.t.hdr->used, f.t.hdr->capacity + 1);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "counters are corrupt");
    atomic_store(&f.t.hdr->used, UINT32_MAX);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "counters are corrupt");
    drop(&f);
}

/* --- names ---------------------------------------------------------------- */

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

/* --- bind, find, add ------------------------------------------------------ */

TEST(used_is_clamped_to_the_capacity_bound_at_attach)
{
    struct fixture f = make_table(16, false);
    atomic_store(&f.t.hdr->used, 3);
    CHECK_EQ_INT(rg_table_used(&f.t), 3);
    atomic_store(&f.t.hdr->used, 16);
    CHECK_EQ_INT(rg_table_used(&f.t), 16);
    /* Rewritten after attach, as any program of the user may. */
    atomic_store(&f.t.hdr->used, UINT32_MAX);
    CHECK_EQ_INT(rg_table_used(&f.t), 16);
    drop(&f);
}

TEST(bind_points_into_the_mapping)
{
    struct fixture f = make_table(16, false);
    struct rg_table t;
    rg_table_bind(&t, f.map, f.size);
    CHECK(t.hdr == f.map);
    CHECK((char *)t.index == (char *)f.map + RG_HEADER_SIZE);
    CHECK((char *)t.entries == (char *)f.map + RG_HEADER_SIZE + 1024 * sizeof *t.index);
    CHECK((char *)t.names == (char *)(t.entries + 16));
    CHECK((char *)t.pages == (char *)(t.names + 512));
    CHECK((char *)t.pages + RG_PAGE_SIZE == (char *)f.map + f.size);
    CHECK_EQ_INT(t.map_size, f.size);
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
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), 0);
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
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), 0);
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

/* --- stamps ---------------------------------------------------------------- */

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

/* --- generations and forgetting ------------------------------------------- */

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

/* --- writers --------------------------------------------------------------- */

TEST(writer_open_counts_and_remembers_pid)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_open(e, 200);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 2);
    CHECK_EQ_INT(r.writer_pid, 200);
    drop(&f);
}

TEST(writer_close_counts_down_and_never_underflows)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 1);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 0);
    rg_entry_writer_close(e);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 0);
    drop(&f);
}

TEST(writer_count_saturates_without_touching_the_pid)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    for (uint32_t i = 0; i < RG_WRITING_MAX + 5; i++)
        rg_entry_writer_open(e, 4194303); /* the largest Linux pid */
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, RG_WRITING_MAX);
    CHECK_EQ_INT(r.writer_pid, 4194303);
    rg_entry_writer_close(e);
    r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, RG_WRITING_MAX - 1);
    CHECK_EQ_INT(r.writer_pid, 4194303);
    drop(&f);
}

/* An own act in flight (a rename, a chmod) counts as a writer, so a sibling
 * waits for its restamp, but names no process: none holds the file for it,
 * and a killed one must not pass for a live writer. */
TEST(act_counts_as_a_writer_without_naming_one)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_close(e);
    rg_entry_act_begin(e);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 1);
    CHECK_EQ_INT(r.writer_pid, 0);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 0);
    drop(&f);
}

TEST(act_keeps_the_writer_already_named)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_act_begin(e);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 2);
    CHECK_EQ_INT(r.writer_pid, 100);
    rg_entry_writer_close(e);
    r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 1);
    CHECK_EQ_INT(r.writer_pid, 100);
    drop(&f);
}

TEST(act_count_saturates)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    for (uint32_t i = 0; i < RG_WRITING_MAX + 5; i++)
        rg_entry_act_begin(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, RG_WRITING_MAX);
    drop(&f);
}

/* --- content hashes in entries ---------------------------------------------- */

TEST(stamp_keeps_the_hash_of_the_read)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 10, .size = 3, .hash = 77};
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 20));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 77);
    drop(&f);
}

TEST(rereading_the_same_stamp_with_new_bytes_updates_the_hash)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 10, .size = 3, .hash = 77};
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 20));
    st.hash = 78; /* changed within the tick: same stamp, other bytes */
    rg_entry_stamp(&f.t, e, &st, false, 21);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 78);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 21); /* hashed as of then */
    st.hash = 0;                                      /* a re-read that did not hash leaves it */
    rg_entry_stamp(&f.t, e, &st, false, 22);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 78);
    drop(&f);
}

TEST(own_write_restamp_drops_the_hash)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 10, .size = 3, .hash = 77};
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 20));
    struct rg_stamp w = {.mtime_ns = 30, .ctime_ns = 30, .size = 4};
    CHECK(rg_entry_stamp(&f.t, e, &w, true, 40));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 0);
    drop(&f);
}

/* --- a full table ---------------------------------------------------------- */

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
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), 0);
    CHECK_EQ_INT(fill(&f), RG_MIN_CAPACITY);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), 1);
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

/* --- roots ---------------------------------------------------------------- */

TEST(roots_iterate_in_order)
{
    struct fixture f = make_table(16, false);
    const char *r = rg_table_root(f.t.hdr, NULL);
    CHECK_EQ_STR(r, "/a");
    r = r ? rg_table_root(f.t.hdr, r) : NULL;
    CHECK_EQ_STR(r, "/b");
    r = r ? rg_table_root(f.t.hdr, r) : NULL;
    CHECK(r == NULL);
    drop(&f);
}

TEST(roots_single_slash)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    const char *slash[] = {"/"};
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = slash, .nroots = 1};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    const char *r = rg_table_root(map, NULL);
    CHECK_EQ_STR(r, "/");
    CHECK(r == NULL || rg_table_root(map, r) == NULL);
    munmap(map, size);
}

/* A table whose roots are the given ones, for rg_table_roots_list. */
static void *table_with_roots(const char *const *roots, size_t n)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = roots, .nroots = n};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    return map;
}

TEST(roots_list_joins_with_colons)
{
    void *map = table_with_roots(roots_ab, 2);
    char out[16];
    rg_table_roots_list(map, out, sizeof out);
    CHECK_EQ_STR(out, "/a:/b");
    munmap(map, rg_table_file_size(16));
}

/* Split at its colon, "/x:/y" would name /x and /y instead. */
TEST(roots_list_is_slash_when_a_root_has_a_colon)
{
    const char *roots[] = {"/a", "/x:/y"};
    void *map = table_with_roots(roots, 2);
    char out[16];
    rg_table_roots_list(map, out, sizeof out);
    CHECK_EQ_STR(out, "/");
    munmap(map, rg_table_file_size(16));
}

TEST(roots_list_is_slash_when_it_does_not_fit)
{
    void *map = table_with_roots(roots_ab, 2);
    char exact[6], short_by_one[5];
    rg_table_roots_list(map, exact, sizeof exact);
    CHECK_EQ_STR(exact, "/a:/b");
    rg_table_roots_list(map, short_by_one, sizeof short_by_one);
    CHECK_EQ_STR(short_by_one, "/");
    munmap(map, rg_table_file_size(16));
}

TEST(roots_list_is_slash_without_roots)
{
    void *map = table_with_roots(NULL, 0);
    char out[16];
    rg_table_roots_list(map, out, sizeof out);
    CHECK_EQ_STR(out, "/");
    munmap(map, rg_table_file_size(16));
}

TEST(roots_none)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = NULL, .nroots = 0};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    CHECK(rg_table_root(map, NULL) == NULL);
    CHECK(rg_table_validate(map, size, UID) == NULL);
    munmap(map, size);
}

/* --- several processes at once -------------------------------------------- */

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
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), 0);
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
    RUN(file_size_is_header_index_entries_and_names);
    RUN(a_noted_name_finds_its_entry);
    RUN(a_name_never_noted_finds_nothing);
    RUN(another_name_in_the_same_slot_is_not_taken_for_it);
    RUN(a_corrupt_name_slot_points_nowhere);
    RUN(stamp_left_half_written_by_a_killed_stamper_is_taken_over);
    RUN(own_write_mark_is_not_believed_while_a_stamp_is_under_way);
    RUN(every_full_stamp_leaves_the_lock_free);
    RUN(format_then_validate_is_ok);
    RUN(format_stores_the_settings);
    RUN(format_without_log_path_leaves_it_empty);
    RUN(format_rejects_bad_capacity);
    RUN(format_rejects_size_that_does_not_match_capacity);
    RUN(format_rejects_roots_too_long);
    RUN(format_rejects_log_path_too_long);
    RUN(validate_rejects_too_small);
    RUN(validate_rejects_wrong_magic);
    RUN(a_new_table_is_owned_by_its_creator);
    RUN(a_take_over_moves_the_owner_and_keeps_the_creator);
    RUN(a_table_of_another_version_is_owned_by_its_creator_pid);
    RUN(validate_rejects_other_version);
    RUN(validate_rejects_other_entry_size);
    RUN(validate_rejects_other_header_size);
    RUN(validate_rejects_wrong_uid);
    RUN(validate_rejects_truncated_size);
    RUN(validate_rejects_padded_size);
    RUN(validate_rejects_file_size_mismatch);
    RUN(validate_rejects_capacity_out_of_range);
    RUN(validate_rejects_wrong_index_slots);
    RUN(validate_rejects_mode_out_of_range);
    RUN(validate_rejects_unterminated_roots);
    RUN(validate_rejects_relative_root);
    RUN(validate_rejects_more_roots_than_stored);
    RUN(validate_rejects_unterminated_log_path);
    RUN(validate_rejects_generation_zero);
    RUN(validate_rejects_used_beyond_capacity);
    RUN(used_is_clamped_to_the_capacity_bound_at_attach);
    RUN(bind_points_into_the_mapping);
    RUN(find_on_empty_table_is_null);
    RUN(find_or_add_then_find_returns_same_entry);
    RUN(find_or_add_of_known_key_adds_nothing);
    RUN(distinct_keys_get_distinct_entries);
    RUN(a_run_of_consecutive_inodes_fills_the_default_capacity);
    RUN(a_run_starting_mid_line_fills_a_small_table);
    RUN(dev_above_32_bits_is_refused);
    RUN(dev_of_exactly_32_bits_is_kept);
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
    RUN(reset_forgets_every_read);
    RUN(stamp_after_reset_is_found_again);
    RUN(stamp_after_reset_accepts_older_ctime);
    RUN(reset_skips_generation_zero);
    RUN(forget_makes_the_entry_unread);
    RUN(writer_open_counts_and_remembers_pid);
    RUN(writer_close_counts_down_and_never_underflows);
    RUN(writer_count_saturates_without_touching_the_pid);
    RUN(act_counts_as_a_writer_without_naming_one);
    RUN(act_keeps_the_writer_already_named);
    RUN(act_count_saturates);
    RUN(stamp_keeps_the_hash_of_the_read);
    RUN(rereading_the_same_stamp_with_new_bytes_updates_the_hash);
    RUN(own_write_restamp_drops_the_hash);
    RUN(small_table_fills_up_and_sets_full);
    RUN(full_table_still_finds_and_returns_known_keys);
    RUN(full_table_stays_valid_after_many_failed_adds);
    RUN(roots_iterate_in_order);
    RUN(roots_single_slash);
    RUN(roots_none);
    RUN(roots_list_joins_with_colons);
    RUN(roots_list_is_slash_when_a_root_has_a_colon);
    RUN(roots_list_is_slash_when_it_does_not_fit);
    RUN(roots_list_is_slash_without_roots);
    RUN(concurrent_adds_from_processes_publish_each_key_once);
    return check_done();
}
