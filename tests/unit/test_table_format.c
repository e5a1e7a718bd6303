/* Unit tests for rg_table_format (core/table.c): the file's size, the
 * settings it stores, what it refuses, and who owns a new table. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "table_rooted.h"

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
    CHECK_EQ_INT(atomic_load(&h->full), RG_FULL_NOT);
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

int main(void)
{
    RUN(file_size_is_header_index_entries_and_names);
    RUN(format_then_validate_is_ok);
    RUN(format_stores_the_settings);
    RUN(format_without_log_path_leaves_it_empty);
    RUN(format_rejects_bad_capacity);
    RUN(format_rejects_size_that_does_not_match_capacity);
    RUN(format_rejects_roots_too_long);
    RUN(format_rejects_log_path_too_long);
    RUN(a_new_table_is_owned_by_its_creator);
    RUN(a_take_over_moves_the_owner_and_keeps_the_creator);
    RUN(a_table_of_another_version_is_owned_by_its_creator_pid);
    RUN(bind_points_into_the_mapping);
    return check_done();
}
