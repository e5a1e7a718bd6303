/* One table, mapped once, and the threads that race on it, for the stress
 * tests of the lock-free table (test_table_threads.c, test_entry_threads.c). */
#ifndef RG_TEST_THREADS_FIXTURE_H
#define RG_TEST_THREADS_FIXTURE_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "check.h"
#include "core/table.h"

#define THREADS 8
#define PER_THREAD 1500 /* distinct keys each thread owns */
#define SHARED 64       /* keys every thread uses */
#define ROUNDS 3000     /* operations on the shared keys per thread */
#define CAPACITY 32768u

static const char *const roots[] = {"/r"};

static struct rg_table table;
static void *map;
static size_t map_size;

static inline void setup(void)
{
    map_size = rg_table_file_size(CAPACITY);
    map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    struct rg_settings s = {.capacity = CAPACITY, .roots = roots, .nroots = 1};
    if (map == MAP_FAILED || rg_table_format(map, map_size, &s, 1, 1, 1) != 0) {
        fprintf(stderr, "# cannot set up a table\n");
        exit(2);
    }
    rg_table_bind(&table, map, map_size);
}

static inline void teardown(void) { munmap(map, map_size); }

static inline int run_threads(void *(*fn)(void *))
{
    pthread_t th[THREADS];
    int started = 0;
    for (long t = 0; t < THREADS; t++)
        started += pthread_create(&th[t], NULL, fn, (void *)t) == 0;
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    return started;
}

static _Atomic int wrong; /* a thread saw something it should not have */

#endif
