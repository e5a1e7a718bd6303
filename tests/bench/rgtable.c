/* The session table at scale, for scripts/dev/bench.sh.
 *
 * Usage: rgtable fill TABLE N     add N entries (made-up inodes on a made-up
 *                                 device) and print "bytes_per_file B", the
 *                                 table's resident size over its entries
 *        rgtable session ITERS    print "create_ns N" and "attach_ns N":
 *                                 making a default-size table, and mapping
 *                                 and checking an existing one (what every
 *                                 process of a session does once)
 *
 * fill writes the table directly, as the shim would after N reads: what the
 * benchmark wants is an index and an entry array as full as N real files
 * make them, not the hours it takes to create a million files. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/table.h"
#include "os/clock.h"
#include "os/session.h"
/* No real st_dev is this large and still fits the table's 32 bits, so the
 * made-up entries never match a real file. */
#define FAKE_DEV 0xfffff000u

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return rg_timespec_ns(&ts);
}

/* By strtol, not atol: a count such as "10x" is refused, not read as 10. */
static long count_arg(const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    return *s && !*end && n > 0 ? n : 0;
}

static int fill(const char *path, long n)
{
    struct rg_table t;
    const char *why = rg_session_attach(path, &t);
    if (why) {
        fprintf(stderr, "rgtable: %s: %s\n", path, why);
        return 2;
    }
    struct rg_stamp st = {.mtime_ns = 1, .ctime_ns = 1, .size = 4096};
    for (long i = 0; i < n; i++) {
        struct rg_entry *e = rg_table_find_or_add(&t, FAKE_DEV, (uint64_t)i + 1);
        if (!e) {
            fprintf(stderr, "rgtable: the table is full after %ld entries\n", i);
            return 1;
        }
        rg_entry_stamp(&t, e, &st, false, rg_now_ns());
        /* And its name, as a read that records a file notes it
         * (guard/namehint.c): a name's key is a hash of its path. */
        rg_table_name_note(&t, (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull, e);
    }
    struct stat sb;
    uint32_t used = atomic_load(&t.hdr->used);
    if (stat(path, &sb) != 0 || used == 0)
        return 2;
    /* st_blocks counts the pages tmpfs gave the sparse file: what it costs. */
    printf("entries %u\nbytes_per_file %.1f\n", used,
           (double)((long long)sb.st_blocks * 512 - RG_HEADER_SIZE) / used);
    rg_session_detach(&t);
    return 0;
}

static int session(long iters)
{
    const char *roots[] = {"/nonexistent-bench-root"};
    struct rg_settings s = {.mode = RG_MODE_ENFORCE,
                            .capacity = RG_DEFAULT_CAPACITY,
                            .log_path = "/dev/null",
                            .roots = roots,
                            .nroots = 1};
    char path[PATH_MAX], err[256];
    int64_t create = 0, attach = 0;
    for (long i = 0; i < iters; i++) {
        int64_t t0 = now_ns();
        struct rg_exec_wait wait = {0};
        if (rg_session_create(&s, (int32_t)getpid(), path, sizeof path, err, sizeof err, &wait) <
            0) {
            fprintf(stderr, "rgtable: %s\n", err);
            return 2;
        }
        int64_t t1 = now_ns();
        struct rg_table t;
        const char *why = rg_session_attach(path, &t);
        if (!why)
            rg_session_detach(&t);
        int64_t t2 = now_ns();
        unlink(path);
        if (why) {
            fprintf(stderr, "rgtable: %s\n", why);
            return 2;
        }
        create += t1 - t0;
        attach += t2 - t1;
    }
    printf("create_ns %.0f\nattach_ns %.0f\n", (double)create / (double)iters,
           (double)attach / (double)iters);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "fill") == 0 && count_arg(argv[3]))
        return fill(argv[2], count_arg(argv[3]));
    if (argc == 3 && strcmp(argv[1], "session") == 0 && count_arg(argv[2]))
        return session(count_arg(argv[2]));
    fprintf(stderr, "usage: rgtable fill TABLE N | rgtable session ITERS\n");
    return 2;
}
