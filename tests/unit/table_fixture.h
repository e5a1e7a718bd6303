/* A formatted table in anonymous memory for the tests of the table and its
 * entries (core/table.c, tablepages.c, entry.c, entry_append.c); MAP_SHARED
 * where forked processes race on one table. */
#ifndef RG_TEST_TABLE_FIXTURE_H
#define RG_TEST_TABLE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "core/table.h"

#define UID 4242u

struct fixture {
    struct rg_table t;
    void *map;
    size_t size;
};

static inline struct fixture make_shared_table(uint32_t cap, int share)
{
    struct fixture f = {.size = rg_table_file_size(cap)};
    f.map = mmap(NULL, f.size, PROT_READ | PROT_WRITE, share | MAP_ANONYMOUS, -1, 0);
    struct rg_settings s = {.mode = RG_MODE_ENFORCE, .capacity = cap};
    if (f.map == MAP_FAILED || rg_table_format(f.map, f.size, &s, UID, 77, 1) != 0) {
        fprintf(stderr, "# cannot set up a table\n");
        exit(2);
    }
    rg_table_bind(&f.t, f.map, f.size);
    return f;
}

static inline void drop(struct fixture *f) { munmap(f->map, f->size); }

static inline const char *validate(struct fixture *f)
{
    return rg_table_validate(f->map, f->size, UID);
}

#endif
