/* Unit tests for scan.c: a process that reads more than scan_files distinct
 * files within the window is scanning, and the ring's per-bucket marks,
 * which answer "not seen lately" without a walk, never change that count. */
#include <stdlib.h>
#include <sys/mman.h>

#include "check.h"
#include "core/table.h"
#include "guard/scan.h"
#define FILES 8u

static const char *const roots_a[] = {"/a"};

struct fixture {
    struct rg_table t;
    void *map;
    size_t size;
    struct rg_scan s;
};

/* A table whose scan rule is FILES files within an hour: no test outruns it. */
static struct fixture *make(void)
{
    struct fixture *f = calloc(1, sizeof *f);
    f->size = rg_table_file_size(16);
    f->map = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct rg_settings st = {.mode = RG_MODE_WARN,
                             .capacity = 16,
                             .roots = roots_a,
                             .nroots = 1,
                             .scan_files = FILES,
                             .scan_window_ns = 3600ll * 1000000000};
    if (f->map == MAP_FAILED || rg_table_format(f->map, f->size, &st, 4242, 77, 1) != 0) {
        fprintf(stderr, "# cannot set up a table\n");
        exit(2);
    }
    rg_table_bind(&f->t, f->map, f->size);
    return f;
}

static void drop(struct fixture *f)
{
    munmap(f->map, f->size);
    free(f);
}

static bool scans(uint32_t reader) { return reader & RG_READER_SCAN; }

TEST(more_than_scan_files_distinct_reads_scan)
{
    struct fixture *f = make();
    for (uint32_t i = 1; i <= FILES; i++)
        CHECK(!scans(rg_scan_note(&f->s, &f->t, i)));
    CHECK(scans(rg_scan_note(&f->s, &f->t, FILES + 1)));
    drop(f);
}

TEST(re_reads_of_scan_files_files_never_scan)
{
    struct fixture *f = make();
    for (uint32_t i = 0; i < 10 * FILES; i++)
        CHECK(!scans(rg_scan_note(&f->s, &f->t, 1 + i % FILES)));
    drop(f);
}

/* Entries one bucket apart share a mark: the mark sends the lookup on to
 * the ring, which still finds each of them. */
TEST(files_sharing_a_mark_are_still_seen)
{
    struct fixture *f = make();
    for (uint32_t i = 0; i < 10 * FILES; i++)
        CHECK(!scans(rg_scan_note(&f->s, &f->t, 1 + (i % 2) * RG_SCAN_MARKS)));
    drop(f);
}

/* Nor does a shared mark make distinct files one. */
TEST(distinct_files_sharing_a_mark_count_apart)
{
    struct fixture *f = make();
    for (uint32_t i = 0; i < FILES; i++)
        CHECK(!scans(rg_scan_note(&f->s, &f->t, 1 + i * RG_SCAN_MARKS)));
    CHECK(scans(rg_scan_note(&f->s, &f->t, 1 + FILES * RG_SCAN_MARKS)));
    drop(f);
}

/* A file read more than scan_files reads ago is out of the window: read
 * again, it counts as one more distinct file. */
TEST(a_file_read_before_the_window_counts_again)
{
    struct fixture *f = make();
    for (uint32_t i = 1; i <= FILES; i++)
        rg_scan_note(&f->s, &f->t, i);
    CHECK(scans(rg_scan_note(&f->s, &f->t, 1 + FILES)));
    CHECK(scans(rg_scan_note(&f->s, &f->t, 1)));
    drop(f);
}

/* The marks are 16-bit ring positions: past 65536 reads a file read within
 * the window is still seen, and is not pushed again. */
TEST(files_in_the_window_are_seen_after_the_marks_wrap)
{
    struct fixture *f = make();
    for (uint32_t i = 0; i < 70000; i++)
        rg_scan_note(&f->s, &f->t, 1 + i % 200);
    for (uint32_t i = 0; i < FILES; i++)
        rg_scan_note(&f->s, &f->t, 1000 + i);
    uint32_t pushed = atomic_load(&f->s.next);
    for (uint32_t i = 0; i < 3 * FILES; i++)
        rg_scan_note(&f->s, &f->t, 1000 + i % FILES);
    CHECK_EQ_INT(atomic_load(&f->s.next), pushed);
    drop(f);
}

/* A fork child's reads are its own: the parent's scan is not its scan,
 * and a file the parent read is not one the child has seen. */
TEST(after_forget_a_file_the_parent_scanned_is_a_new_read)
{
    struct fixture *f = make();
    for (uint32_t i = 1; i <= FILES + 1; i++)
        rg_scan_note(&f->s, &f->t, i);
    CHECK(scans(f->s.reader));
    rg_scan_forget(&f->s);
    CHECK(!scans(rg_scan_read(&f->s, &f->t, FILES + 1)));
    CHECK(!scans(rg_scan_note(&f->s, &f->t, 1)));
    drop(f);
}

/* forget leaves the parent's ring and marks behind: the child still counts
 * each of its own distinct reads once, and sees its own re-reads. */
TEST(after_forget_the_child_counts_its_own_reads_from_zero)
{
    struct fixture *f = make();
    for (uint32_t i = 1; i <= FILES + 1; i++)
        rg_scan_note(&f->s, &f->t, i);
    rg_scan_forget(&f->s);
    for (uint32_t i = 0; i < 3 * FILES; i++)
        CHECK(!scans(rg_scan_note(&f->s, &f->t, FILES - i % FILES)));
    CHECK(scans(rg_scan_note(&f->s, &f->t, FILES + 1)));
    drop(f);
}

int main(void)
{
    RUN(more_than_scan_files_distinct_reads_scan);
    RUN(re_reads_of_scan_files_files_never_scan);
    RUN(files_sharing_a_mark_are_still_seen);
    RUN(distinct_files_sharing_a_mark_count_apart);
    RUN(a_file_read_before_the_window_counts_again);
    RUN(files_in_the_window_are_seen_after_the_marks_wrap);
    RUN(after_forget_a_file_the_parent_scanned_is_a_new_read);
    RUN(after_forget_the_child_counts_its_own_reads_from_zero);
    return check_done();
}
