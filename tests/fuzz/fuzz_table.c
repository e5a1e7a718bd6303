/* Table attach and validation: whatever bytes a session table file holds,
 * rg_table_validate either rejects them with a reason or accepts a table
 * that every operation the shim performs can then use without a wild read
 * or write; and rg_session_attach, given the same bytes as a file (when the
 * first byte has bit 2 set), agrees with it. Two shapes of input, chosen by
 * the first byte:
 *   even: the input itself is the mapping (almost always too small or of the
 *         wrong magic: the early checks);
 *   odd:  a valid table with the input applied as patches (offset, bytes),
 *         plus a size change, so the deep checks and the accepted path are
 *         reached. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/ignore.h"
#include "core/table.h"
#include "fuzz.h"
#include "os/session.h"
#define CAP 16u

static uint8_t *table_map(size_t *size)
{
    static uint8_t *map;
    static size_t map_size;
    if (!map) {
        /* Page-aligned and one page more than a table, as a real mapping:
         * a size patch may claim up to that. */
        map_size = rg_table_file_size(CAP) + 4096;
        map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        FUZZ_CHECK(map != MAP_FAILED);
    }
    *size = map_size;
    return map;
}

static char file_path[4096];

static void remove_file(void) { unlink(file_path); }

/* One scratch file for the whole run, removed at exit. */
static int table_file(void)
{
    static int fd = -1;
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(file_path, sizeof file_path, "%s/rg-fuzz-table-XXXXXX",
                 dir && *dir ? dir : "/tmp");
        fd = mkstemp(file_path);
        FUZZ_CHECK(fd >= 0);
        atexit(remove_file);
    }
    return fd;
}

/* The same bytes as a file: attach must accept exactly what validate does. */
static void check_attach(const uint8_t *map, size_t len, const char *why)
{
    int fd = table_file();
    FUZZ_CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, map, len, 0) == (ssize_t)len);
    struct rg_table t = {0};
    const char *attach_why = rg_session_attach(file_path, &t);
    FUZZ_CHECK(!attach_why == !why);
    if (!attach_why) {
        FUZZ_CHECK(t.hdr && t.map_size == len);
        rg_session_detach(&t);
    }
}

static void format_valid(uint8_t *map, size_t size)
{
    static const char *const roots[] = {"/r", "/s/t"};
    static const char ignores[] = "*build/\0*!keep.o\0/"
                                  "/tmp\0A*.swp\0";
    memset(map, 0, size);
    struct rg_settings s = {.mode = RG_MODE_ENFORCE,
                            .capacity = CAP,
                            .log_path = "/l",
                            .roots = roots,
                            .nroots = 2,
                            .ignores = ignores,
                            .ignores_len = sizeof ignores - 1,
                            .nignores = 4};
    FUZZ_CHECK(rg_table_format(map, rg_table_file_size(CAP), &s, (uint32_t)geteuid(), 1, 1) == 0);
}

/* What the shim and the CLI do with an accepted table. */
static void use_accepted(uint8_t *map, size_t size, const uint8_t *data, size_t n)
{
    struct rg_table t;
    rg_table_bind(&t, map, size);
    FUZZ_CHECK((uint8_t *)(t.entries + t.hdr->capacity) <= map + size);
    FUZZ_CHECK((uint8_t *)(t.names + t.hdr->index_slots / 2) <= map + size);
    unsigned i = 0;
    for (const char *r = rg_table_root(t.hdr, NULL); r; r = rg_table_root(t.hdr, r), i++) {
        FUZZ_CHECK(r >= t.hdr->roots && r < t.hdr->roots + sizeof t.hdr->roots);
        FUZZ_CHECK(r[0] == '/');
        char abs[RG_ROOTS_MAX + 32];
        snprintf(abs, sizeof abs, "%s/a/build/x.o", r);
        rg_ignored(t.hdr->ignores, t.hdr->ignores_len, r, i, abs);
    }
    FUZZ_CHECK(i == t.hdr->nroots);
    char scope;
    for (const char *g = rg_ignore_next(t.hdr->ignores, t.hdr->ignores_len, NULL, &scope); g;
         g = rg_ignore_next(t.hdr->ignores, t.hdr->ignores_len, g, &scope))
        FUZZ_CHECK(g >= t.hdr->ignores && g < t.hdr->ignores + t.hdr->ignores_len);
    for (size_t k = 0; k + 2 <= n && k < 64; k += 2) {
        uint64_t ino = data[k];
        struct rg_entry *e = rg_table_find_or_add(&t, data[k + 1] & 3, ino);
        if (e) {
            FUZZ_CHECK(e >= t.entries && e < t.entries + t.hdr->capacity);
            struct rg_stamp st = {.mtime_ns = k, .ctime_ns = k, .size = (int64_t)ino};
            rg_entry_stamp(&t, e, &st, data[k + 1] & 4, (int64_t)k);
            if (data[k + 1] & 8)
                rg_entry_forget(e);
        }
        struct rg_entry *f = rg_table_find(&t, data[k + 1] & 3, ino);
        FUZZ_CHECK(!f || (f >= t.entries && f < t.entries + t.hdr->capacity));
        rg_entry_load(&t, f);
        /* The names: whatever a slot holds, a find lands on an entry. */
        uint64_t key = (uint64_t)data[k] << 56 | data[k + 1];
        if (e)
            rg_table_name_note(&t, key, e);
        struct rg_entry *g = rg_table_name_find(&t, key ^ (data[k + 1] & 16 ? 1ull << 40 : 0));
        FUZZ_CHECK(!g || (g >= t.entries && g < t.entries + t.hdr->capacity));
        FUZZ_CHECK(!e || (data[k + 1] & 16) || g == e);
    }
    rg_table_reset(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t map_size;
    uint8_t *map = table_map(&map_size);
    if (size == 0)
        return 0;
    size_t len;
    if (!(data[0] & 1)) {
        len = size - 1 < map_size ? size - 1 : map_size;
        memset(map, 0, map_size);
        memcpy(map, data + 1, len);
    } else {
        format_valid(map, map_size);
        len = rg_table_file_size(CAP);
        const uint8_t *p = data + 1, *end = data + size;
        /* Patches: a 16-bit offset into the header and the index, a count,
         * the bytes. A first byte with bit 1 set also moves the size. */
        if ((data[0] & 2) && end - p >= 2) {
            len = len - 2048 + (size_t)(p[0] | p[1] << 8) % 4096;
            p += 2;
        }
        while (end - p >= 3) {
            size_t off = (size_t)(p[0] | p[1] << 8) % (RG_HEADER_SIZE + 1024 * 4);
            size_t n = p[2] % 16;
            p += 3;
            if (n > (size_t)(end - p))
                n = (size_t)(end - p);
            memcpy(map + off, p, n);
            p += n;
        }
    }
    const char *why = rg_table_validate(map, len, (uint32_t)geteuid());
    if (why)
        FUZZ_CHECK(why[0] != '\0');
    if (data[0] & 4)
        check_attach(map, len, why);
    if (!why)
        use_accepted(map, len, data, size);
    return 0;
}
