/* Unit tests for how a table's entries are backed ahead of their first
 * write (core/table.c): the chunk arithmetic, the backed mark, a claim that
 * backs the chunk it opens, and a file system without room answered as a
 * full table. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/table.h"
#include "table_fixture.h"

static struct fixture make_table(uint32_t cap) { return make_shared_table(cap, MAP_PRIVATE); }

/* A file system that backs what it is asked for until it has no room. */
static struct {
    int calls, room, pages; /* calls: for entries; pages: for a page */
    uint32_t from, to;      /* the entries of the last call for them */
    size_t page_off, page_len;
    int page_room; /* -1: as room; else the room for pages alone */
} fs;

/* Entries [from, to) from their bytes; anything else is a page. */
static int fake_back(const struct rg_table *t, size_t off, size_t len)
{
    size_t entries = (size_t)((char *)t->entries - (char *)t->hdr);
    size_t names = (size_t)((char *)t->names - (char *)t->hdr);
    if (off >= entries && off < names) {
        fs.calls++;
        fs.from = (uint32_t)((off - entries) / sizeof(struct rg_entry));
        fs.to = (uint32_t)((off + len - entries) / sizeof(struct rg_entry));
        return fs.room ? 0 : -ENOSPC;
    }
    fs.pages++;
    fs.page_off = off, fs.page_len = len;
    return (fs.page_room < 0 ? fs.room : fs.page_room) ? 0 : -ENOSPC;
}

static struct fixture backed_table(uint32_t cap, int room)
{
    struct fixture f = make_table(cap);
    f.t.back = fake_back;
    fs.calls = fs.pages = 0, fs.room = room, fs.from = fs.to = 0, fs.page_room = -1;
    return f;
}

static uint32_t add_files(struct fixture *f, uint64_t first, uint32_t n)
{
    uint32_t added = 0;
    for (uint64_t i = first; i < first + n; i++)
        added += rg_table_find_or_add(&f->t, 9, i) != NULL;
    return added;
}

TEST(a_chunk_start_ends_one_chunk_on)
{
    CHECK_EQ_INT(rg_table_chunk_end(0, RG_DEFAULT_CAPACITY), RG_BACK_CHUNK);
    CHECK_EQ_INT(rg_table_chunk_end(RG_BACK_CHUNK, RG_DEFAULT_CAPACITY), 2 * RG_BACK_CHUNK);
}

TEST(an_entry_inside_a_chunk_ends_where_its_chunk_does)
{
    CHECK_EQ_INT(rg_table_chunk_end(1, RG_DEFAULT_CAPACITY), RG_BACK_CHUNK);
    CHECK_EQ_INT(rg_table_chunk_end(RG_BACK_CHUNK - 1, RG_DEFAULT_CAPACITY), RG_BACK_CHUNK);
}

TEST(the_last_chunk_ends_at_the_capacity)
{
    CHECK_EQ_INT(rg_table_chunk_end(0, 16), 16);
    CHECK_EQ_INT(rg_table_chunk_end(RG_BACK_CHUNK, RG_BACK_CHUNK + 5), RG_BACK_CHUNK + 5);
    CHECK_EQ_INT(rg_table_chunk_end(RG_MAX_CAPACITY - 1, RG_MAX_CAPACITY), RG_MAX_CAPACITY);
}

TEST(the_entries_lie_between_the_index_and_the_names)
{
    CHECK_EQ_INT(rg_table_entries_at(16), RG_HEADER_SIZE + 1024 * 4);
    CHECK_EQ_INT(rg_table_names_at(16), RG_HEADER_SIZE + 1024 * 4 + 16 * 64);
    CHECK_EQ_INT(rg_table_pages_at(16) - rg_table_names_at(16), 512 * 8);
    CHECK_EQ_INT(rg_table_file_size(16) - rg_table_pages_at(16), RG_PAGE_SIZE);
}

TEST(the_backed_mark_is_never_lowered)
{
    struct fixture f = make_table(4096);
    rg_table_backed_raise(f.t.hdr, 2048);
    rg_table_backed_raise(f.t.hdr, 1024);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->backed), 2048);
    drop(&f);
}

TEST(a_new_table_has_nothing_backed)
{
    struct fixture f = make_table(4096);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->backed), 0);
    drop(&f);
}

TEST(the_first_record_backs_the_first_chunk)
{
    struct fixture f = backed_table(4096, 1);
    CHECK(rg_table_find_or_add(&f.t, 9, 1) != NULL);
    CHECK_EQ_INT(fs.calls, 1);
    CHECK_EQ_INT(fs.from, 0);
    CHECK_EQ_INT(fs.to, RG_BACK_CHUNK);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->backed), RG_BACK_CHUNK);
    drop(&f);
}

TEST(records_inside_a_backed_chunk_ask_nothing)
{
    struct fixture f = backed_table(4096, 1);
    CHECK_EQ_INT(add_files(&f, 1, RG_BACK_CHUNK), RG_BACK_CHUNK);
    CHECK_EQ_INT(fs.calls, 1);
    drop(&f);
}

TEST(the_record_that_opens_a_chunk_backs_it)
{
    struct fixture f = backed_table(4096, 1);
    CHECK_EQ_INT(add_files(&f, 1, RG_BACK_CHUNK + 1), RG_BACK_CHUNK + 1);
    CHECK_EQ_INT(fs.calls, 2);
    CHECK_EQ_INT(fs.from, RG_BACK_CHUNK);
    CHECK_EQ_INT(fs.to, 2 * RG_BACK_CHUNK);
    drop(&f);
}

TEST(a_small_table_is_backed_to_its_capacity)
{
    struct fixture f = backed_table(16, 1);
    CHECK_EQ_INT(add_files(&f, 1, 20), 16);
    CHECK_EQ_INT(fs.calls, 1);
    CHECK_EQ_INT(fs.to, 16);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL);
    drop(&f);
}

TEST(a_file_system_without_room_is_answered_as_a_full_table)
{
    struct fixture f = backed_table(4096, 0);
    CHECK(rg_table_find_or_add(&f.t, 9, 1) == NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL);
    drop(&f);
}

TEST(a_file_system_without_room_costs_no_entry)
{
    struct fixture f = backed_table(4096, 0);
    CHECK_EQ_INT(add_files(&f, 1, 3), 0);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 0);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->backed), 0);
    drop(&f);
}

TEST(records_go_on_once_the_file_system_has_room_again)
{
    struct fixture f = backed_table(4096, 0);
    CHECK(rg_table_find_or_add(&f.t, 9, 1) == NULL);
    fs.room = 1;
    CHECK(rg_table_find_or_add(&f.t, 9, 1) != NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 1);
    drop(&f);
}

TEST(a_known_file_is_found_without_room)
{
    struct fixture f = backed_table(4096, 1);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 9, 1);
    fs.room = 0;
    CHECK(rg_table_find_or_add(&f.t, 9, 1) == e);
    CHECK_EQ_INT(fs.calls, 1);
    drop(&f);
}

TEST(a_table_with_nothing_to_ask_counts_its_entries_backed)
{
    struct fixture f = make_table(4096);
    CHECK_EQ_INT(add_files(&f, 1, 2), 2);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->backed), RG_BACK_CHUNK);
    drop(&f);
}

/* What a process of the session sees: every entry it was handed lies
 * below the mark, i.e. in a chunk backed before the entry was claimed. */
static int claim_below_the_mark(struct fixture *f, uint64_t first, uint32_t n)
{
    for (uint64_t i = first; i < first + n; i++) {
        struct rg_entry *e = rg_table_find_or_add(&f->t, 9, i);
        if (!e || (uint32_t)(e - f->t.entries) >= atomic_load(&f->t.hdr->backed))
            return 1;
    }
    return 0;
}

TEST(processes_claiming_at_once_never_pass_the_mark)
{
    enum { PROCS = 4, EACH = 3000 };
    struct fixture f = make_shared_table(4 * RG_BACK_CHUNK * PROCS, MAP_SHARED);
    f.t.back = fake_back;
    fs.room = 1, fs.page_room = -1;
    pid_t pid[PROCS];
    for (int p = 0; p < PROCS; p++)
        if ((pid[p] = fork()) == 0)
            _exit(claim_below_the_mark(&f, (uint64_t)p * EACH + 1, EACH));
    int failed = 0, st;
    for (int p = 0; p < PROCS; p++)
        failed += waitpid(pid[p], &st, 0) != pid[p] || !WIFEXITED(st) || WEXITSTATUS(st);
    CHECK_EQ_INT(failed, 0);
    uint32_t used = atomic_load(&f.t.hdr->used), backed = atomic_load(&f.t.hdr->backed);
    CHECK(used >= PROCS * EACH && used <= backed && backed - used < RG_BACK_CHUNK);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    drop(&f);
}

TEST(validate_rejects_used_beyond_backed)
{
    struct fixture f = make_table(4096);
    atomic_store(&f.t.hdr->used, 1);
    CHECK(validate(&f) != NULL);
    atomic_store(&f.t.hdr->backed, RG_BACK_CHUNK);
    CHECK(validate(&f) == NULL);
    drop(&f);
}

TEST(validate_rejects_backed_beyond_capacity)
{
    struct fixture f = make_table(16);
    atomic_store(&f.t.hdr->backed, 16);
    CHECK(validate(&f) == NULL);
    atomic_store(&f.t.hdr->backed, 17);
    CHECK(validate(&f) != NULL);
    drop(&f);
}

TEST(validate_rejects_backed_off_a_chunk_boundary)
{
    struct fixture f = make_table(4096);
    atomic_store(&f.t.hdr->backed, RG_BACK_CHUNK + 1);
    CHECK(validate(&f) != NULL);
    drop(&f);
}

int main(void)
{
    RUN(a_chunk_start_ends_one_chunk_on);
    RUN(an_entry_inside_a_chunk_ends_where_its_chunk_does);
    RUN(the_last_chunk_ends_at_the_capacity);
    RUN(the_entries_lie_between_the_index_and_the_names);
    RUN(the_backed_mark_is_never_lowered);
    RUN(a_new_table_has_nothing_backed);
    RUN(the_first_record_backs_the_first_chunk);
    RUN(records_inside_a_backed_chunk_ask_nothing);
    RUN(the_record_that_opens_a_chunk_backs_it);
    RUN(a_small_table_is_backed_to_its_capacity);
    RUN(a_file_system_without_room_is_answered_as_a_full_table);
    RUN(a_file_system_without_room_costs_no_entry);
    RUN(records_go_on_once_the_file_system_has_room_again);
    RUN(a_known_file_is_found_without_room);
    RUN(a_table_with_nothing_to_ask_counts_its_entries_backed);
    RUN(processes_claiming_at_once_never_pass_the_mark);
    RUN(validate_rejects_used_beyond_backed);
    RUN(validate_rejects_backed_beyond_capacity);
    RUN(validate_rejects_backed_off_a_chunk_boundary);
    return check_done();
}
