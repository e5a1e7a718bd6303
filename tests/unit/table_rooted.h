/* A formatted table with two roots and a log path, in warn mode, for the
 * tests of core/table.c and core/entry.c; table_fixture.h's struct fixture
 * and drop, with the settings these tests read back. */
#ifndef RG_TEST_TABLE_ROOTED_H
#define RG_TEST_TABLE_ROOTED_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "check.h"
#include "core/table.h"
#include "table_fixture.h"

#define LOG "/var/log/rg-test.log"

static const char *const roots_ab[] = {"/a", "/b"};

/* Page-aligned, as a real table's mapping is. */
static inline void *map_anon(size_t size, bool shared)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("# mmap");
        exit(2);
    }
    return p;
}

static inline struct fixture make_table(uint32_t cap, bool shared)
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

static const struct rg_stamp stamp_a = {.mtime_ns = 1000, .ctime_ns = 2000, .size = 10};

#endif
