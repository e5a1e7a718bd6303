/* Unit tests for the page map (core/tablepages.c, core/table.c): pages of
 * the index and of the names are backed one at a time, before their first
 * touch; a lookup never touches a page not marked, and ends its probe
 * there; a file system without room for a page answers as a full table. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/table.h"
#include "table_fixture.h"
#define CAP 4096u /* 8192 slots: 8 pages of index, 8 of names */

/* The file system: backs what it is asked for while it has room. */
static struct {
    int room, pages, chunks;
    size_t off;
} fs;

static int fake_back(const struct rg_table *t, size_t off, size_t len)
{
    size_t entries = (size_t)((char *)t->entries - (char *)t->hdr);
    size_t names = (size_t)((char *)t->names - (char *)t->hdr);
    if (off >= entries && off < names) {
        fs.chunks++;
        return 0; /* entries always have room here: test_table_back.c's */
    }
    CHECK_EQ_INT(len, RG_PAGE_SIZE);
    fs.pages++;
    fs.off = off;
    return fs.room ? 0 : -ENOSPC;
}

static struct fixture make_table(int share, int room)
{
    struct fixture f = make_shared_table(CAP, share);
    f.t.back = fake_back;
    fs.room = room, fs.pages = fs.chunks = 0, fs.off = 0;
    return f;
}

static uint32_t index_pages(const struct fixture *f) { return f->t.index_slots >> 10; }

static uint32_t marked(const struct fixture *f)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < f->t.hdr->pages; p++)
        n += rg_table_page_backed(&f->t, p);
    return n;
}

/* The index and the names made untouchable: a touch would fault. */
static void fence(struct fixture *f, int prot)
{
    char *from = (char *)f->t.index, *to = (char *)f->t.pages;
    size_t entries = (size_t)((char *)f->t.entries - from);
    if (mprotect(from, entries, prot) ||
        mprotect(f->t.names, (size_t)(to - (char *)f->t.names), prot))
        exit(2);
}

/* The probe's hash (core/table.c), which is part of the file format: a
 * key's first line of 16 slots is its hash << 4, the next an odd step on. */
static uint64_t key_hash(uint64_t dev, uint64_t ino)
{
    uint64_t x = (ino >> 4) ^ (dev * 0x9e3779b97f4a7c15ull);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint32_t line_of(uint64_t ino, uint32_t probe_line, uint32_t slots)
{
    uint64_t h = key_hash(9, ino);
    return (uint32_t)(((h + probe_line * ((h >> 32) | 1)) << 4 & (slots - 1)) >> 4);
}

/* A run of 16 inodes, other than those from first, whose first line is
 * first's and whose second lies in another page. */
static uint64_t same_line_other_page(uint64_t first, uint32_t slots)
{
    for (uint64_t run = first + 16;; run += 16)
        if (line_of(run, 0, slots) == line_of(first, 0, slots) &&
            line_of(run, 1, slots) >> 6 != line_of(first, 0, slots) >> 6)
            return run;
}

/* The inodes 16 to 31 fill one line of 16 slots, so a key whose first line
 * is theirs must probe on: into another page, for same_line_other_page's. */
static void fill_the_line(struct fixture *f)
{
    for (uint64_t ino = 16; ino < 32; ino++)
        CHECK(rg_table_find_or_add(&f->t, 9, ino) != NULL);
}

static void the_line_is_found(struct fixture *f)
{
    for (uint64_t ino = 16; ino < 32; ino++)
        CHECK(rg_table_find(&f->t, 9, ino) != NULL);
}

TEST(a_new_table_has_its_page_count_and_nothing_marked)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    CHECK_EQ_INT(f.t.hdr->pages, 16);
    CHECK_EQ_INT(marked(&f), 0);
    drop(&f);
}

TEST(a_lookup_in_a_new_table_touches_neither_index_nor_names)
{
    struct fixture f = make_table(MAP_SHARED, 1);
    fence(&f, PROT_NONE);
    CHECK(rg_table_find(&f.t, 9, 1) == NULL);
    CHECK(rg_table_name_find(&f.t, 0x1234) == NULL);
    fence(&f, PROT_READ | PROT_WRITE);
    CHECK_EQ_INT(fs.pages, 0);
    drop(&f);
}

TEST(the_first_record_backs_and_marks_one_index_page)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 9, 1);
    CHECK(e != NULL);
    CHECK_EQ_INT(fs.pages, 1);
    size_t index = (size_t)((char *)f.t.index - (char *)f.map);
    CHECK(fs.off >= index && fs.off < index + (size_t)f.t.index_slots * 4);
    CHECK_EQ_INT((fs.off - index) % RG_PAGE_SIZE, 0);
    CHECK_EQ_INT(marked(&f), 1);
    CHECK(rg_table_page_backed(&f.t, (uint32_t)((fs.off - index) / RG_PAGE_SIZE)));
    CHECK(rg_table_find(&f.t, 9, 1) == e);
    drop(&f);
}

TEST(records_on_a_marked_page_ask_nothing_more)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    fill_the_line(&f); /* one line: one page */
    CHECK_EQ_INT(fs.pages, 1);
    drop(&f);
}

TEST(a_note_backs_and_marks_one_names_page)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 9, 1);
    rg_table_name_note(&f.t, 0xfeedull << 40 | 77, e);
    CHECK_EQ_INT(fs.pages, 2);
    CHECK(fs.off >= (size_t)((char *)f.t.names - (char *)f.map));
    CHECK(rg_table_name_find(&f.t, 0xfeedull << 40 | 77) == e);
    CHECK_EQ_INT(marked(&f), 2);
    drop(&f);
}

TEST(an_index_page_without_room_is_a_full_table_that_claims_nothing)
{
    struct fixture f = make_table(MAP_PRIVATE, 0);
    CHECK(rg_table_find_or_add(&f.t, 9, 1) == NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->roomless), 1);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 0);
    CHECK_EQ_INT(marked(&f), 0);
    fs.room = 1;
    CHECK(rg_table_find_or_add(&f.t, 9, 1) != NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), 1);
    drop(&f);
}

TEST(a_names_page_without_room_loses_the_note_only)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 9, 1);
    fs.room = 0;
    rg_table_name_note(&f.t, 0xfeedull << 40 | 77, e);
    CHECK(rg_table_name_find(&f.t, 0xfeedull << 40 | 77) == NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL_NOT);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->roomless), 0);
    drop(&f);
}

/* A full line sends a key's probe on to a line in another page: it is put
 * there once that page is backed, and found there again. */
TEST(a_probe_goes_on_into_the_next_page_it_backs)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    uint64_t other = same_line_other_page(16, f.t.index_slots);
    fill_the_line(&f);
    CHECK(rg_table_find(&f.t, 9, other) == NULL);
    CHECK_EQ_INT(fs.pages, 1);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 9, other);
    CHECK(e != NULL);
    CHECK_EQ_INT(fs.pages, 2);
    CHECK(rg_table_find(&f.t, 9, other) == e);
    the_line_is_found(&f);
    drop(&f);
}

/* The same, with no room for that page: the key is refused as by a full
 * table, and the line's keys are still found. */
TEST(a_probe_into_a_page_without_room_answers_full)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    uint64_t other = same_line_other_page(16, f.t.index_slots);
    fill_the_line(&f);
    fs.room = 0;
    uint32_t used = atomic_load(&f.t.hdr->used);
    CHECK(rg_table_find_or_add(&f.t, 9, other) == NULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->full), RG_FULL);
    CHECK_EQ_INT(atomic_load(&f.t.hdr->used), used);
    the_line_is_found(&f);
    drop(&f);
}

/* What every process of a session must see: a filled index slot, or a
 * noted name, lies only in a page marked backed. */
static int fills_only_marked(const struct fixture *f)
{
    for (uint32_t s = 0; s < f->t.index_slots; s++)
        if (atomic_load(&f->t.index[s]) && !rg_table_page_backed(&f->t, s >> 10))
            return 0;
    for (uint32_t s = 0; s < f->t.index_slots / 2; s++)
        if (atomic_load(&f->t.names[s]) && !rg_table_page_backed(&f->t, index_pages(f) + (s >> 9)))
            return 0;
    return 1;
}

TEST(processes_backing_pages_at_once_agree)
{
    enum { PROCS = 4, EACH = 600 }; /* 3,600 files of the 4,096 */
    struct fixture f = make_table(MAP_SHARED, 1);
    pid_t pid[PROCS];
    for (int p = 0; p < PROCS; p++)
        if ((pid[p] = fork()) == 0) {
            int bad = 0;
            for (uint64_t i = 0; i < EACH; i++) {
                /* Spread out, and one in two also added by the next. */
                uint64_t ino = ((uint64_t)p * EACH + i) * 2654435761u;
                struct rg_entry *e = rg_table_find_or_add(&f.t, 9, ino);
                bad |= !e || rg_table_find_or_add(&f.t, 9, ino + (i & 1)) == NULL;
                if (e)
                    rg_table_name_note(&f.t, ino * 0x9e3779b97f4a7c15ull, e);
            }
            _exit(bad);
        }
    int failed = 0, st;
    for (int p = 0; p < PROCS; p++)
        failed += waitpid(pid[p], &st, 0) != pid[p] || !WIFEXITED(st) || WEXITSTATUS(st);
    CHECK_EQ_INT(failed, 0);
    CHECK(fills_only_marked(&f));
    for (uint64_t i = 0; i < (uint64_t)PROCS * EACH; i++)
        CHECK(rg_table_find(&f.t, 9, i * 2654435761u) != NULL);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    drop(&f);
}

TEST(validate_rejects_a_page_count_that_disagrees)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    CHECK(validate(&f) == NULL);
    f.t.hdr->pages++;
    CHECK(validate(&f) != NULL);
    drop(&f);
}

TEST(validate_rejects_a_mark_past_the_last_page)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    atomic_store(&f.t.pages[0], 1ull << 15); /* the last page: fine */
    CHECK(validate(&f) == NULL);
    atomic_store(&f.t.pages[0], 1ull << 16);
    CHECK(validate(&f) != NULL);
    drop(&f);
}

TEST(validate_rejects_a_roomless_mark_other_than_0_or_1)
{
    struct fixture f = make_table(MAP_PRIVATE, 1);
    atomic_store(&f.t.hdr->roomless, 1);
    CHECK(validate(&f) == NULL);
    atomic_store(&f.t.hdr->roomless, 2);
    CHECK(validate(&f) != NULL);
    drop(&f);
}

int main(void)
{
    RUN(a_new_table_has_its_page_count_and_nothing_marked);
    RUN(a_lookup_in_a_new_table_touches_neither_index_nor_names);
    RUN(the_first_record_backs_and_marks_one_index_page);
    RUN(records_on_a_marked_page_ask_nothing_more);
    RUN(a_note_backs_and_marks_one_names_page);
    RUN(an_index_page_without_room_is_a_full_table_that_claims_nothing);
    RUN(a_names_page_without_room_loses_the_note_only);
    RUN(a_probe_goes_on_into_the_next_page_it_backs);
    RUN(a_probe_into_a_page_without_room_answers_full);
    RUN(processes_backing_pages_at_once_agree);
    RUN(validate_rejects_a_page_count_that_disagrees);
    RUN(validate_rejects_a_mark_past_the_last_page);
    RUN(validate_rejects_a_roomless_mark_other_than_0_or_1);
    return check_done();
}
