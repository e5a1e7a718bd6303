#include "core/table.h"
#include <errno.h>
#include <string.h>

/* Memory orders: an entry's key is written before the index slot that
 * publishes it (release) and read after loading that slot (acquire). What
 * an entry holds, and how it is stamped, is core/entry.c's. */
static uint64_t mix(uint64_t dev, uint64_t ino)
{
    uint64_t x = ino ^ (dev * 0x9e3779b97f4a7c15ull);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The index slot of a key's probe number i. Sixteen inodes that differ in
 * their low four bits share one 64-byte line of the index, so a command
 * that works through a directory (git checkout, grep -r: its files' inode
 * numbers run close) misses the cache and the TLB once per sixteen files,
 * not once per file: on a VM, a random slot of the 8 MiB index cost about
 * a microsecond each, the shim's largest cost in those rows. The probe
 * visits the key's line first (from its own slot on), then whole lines
 * by double hashing (an odd step of lines), not the next line: sixteen
 * dense keys fill a line, and linear probing from it would clump the
 * lines of a run of a million inode numbers past RG_MAX_PROBE. */
static uint32_t probe_slot(uint64_t h, uint64_t ino, uint32_t i, uint32_t mask)
{
    uint64_t line = (h + (uint64_t)(i >> 4) * ((h >> 32) | 1)) << 4;
    return (uint32_t)((line + ((ino + i) & 15)) & mask);
}

static uint64_t key_hash(uint64_t dev, uint64_t ino) { return mix(dev, ino >> 4); }

/* Copies str and its NUL into a field of cap bytes: the bytes copied, or 0
 * when it does not fit. */
static size_t put_string(char *field, size_t cap, const char *str)
{
    size_t n = strlen(str) + 1;
    if (n > cap)
        return 0;
    memcpy(field, str, n);
    return n;
}

/* The roots, the log path and the journal directory into their fixed-size
 * header fields: 0, or -ENAMETOOLONG when one does not fit. */
static int put_paths(struct rg_header *h, const struct rg_settings *s)
{
    size_t off = 0;
    for (size_t i = 0; i < s->nroots; i++) {
        size_t n = put_string(h->roots + off, sizeof h->roots - off, s->roots[i]);
        if (!n)
            return -ENAMETOOLONG;
        off += n;
    }
    if (s->log_path && !put_string(h->log_path, sizeof h->log_path, s->log_path))
        return -ENAMETOOLONG;
    if (s->journal_dir && !put_string(h->journal_dir, sizeof h->journal_dir, s->journal_dir))
        return -ENAMETOOLONG;
    return 0;
}

int rg_table_format(void *map, size_t size, const struct rg_settings *s, uint32_t uid,
                    int32_t creator_pid, int64_t now_ns)
{
    struct rg_header *h = map;
    if (s->capacity < RG_MIN_CAPACITY || s->capacity > RG_MAX_CAPACITY)
        return -EINVAL;
    if (size != rg_table_file_size(s->capacity))
        return -EINVAL;
    int err = put_paths(h, s);
    if (err)
        return err;
    if (s->ignores_len > sizeof h->ignores)
        return -ENAMETOOLONG;
    if ((s->flags & ~RG_POLICY_KNOWN) || s->read_ttl_ns < 0 ||
        !rg_scan_settings_ok(s->scan_files, s->scan_window_ns) || s->journal_max_file < 0)
        return -EINVAL;
    if (s->ignores_len)
        memcpy(h->ignores, s->ignores, s->ignores_len);
    h->ignores_len = (uint32_t)s->ignores_len;
    h->nignores = s->nignores;
    h->flags = s->flags;
    h->read_ttl_ns = s->read_ttl_ns;
    h->scan_files = s->scan_files;
    h->scan_window_ns = s->scan_window_ns;
    h->journal_max_file = s->journal_max_file;
    h->creator_pidns = s->creator_pidns;
    h->version = RG_TABLE_VERSION;
    h->header_size = RG_HEADER_SIZE;
    h->file_size = size;
    h->entry_size = sizeof(struct rg_entry);
    h->capacity = s->capacity;
    h->index_slots = (uint32_t)rg_table_index_slots(s->capacity);
    h->pages = rg_table_page_count(h->index_slots);
    h->uid = uid;
    h->creator_pid = creator_pid;
    atomic_store(&h->owner_pid, creator_pid);
    h->mode = s->mode;
    h->created_ns = now_ns;
    h->nroots = (uint32_t)s->nroots;
    atomic_store(&h->generation, 1);
    /* Magic last: a process that attaches to a half-written file sees no table. */
    atomic_thread_fence(memory_order_release);
    memcpy(h->magic, RG_MAGIC, sizeof h->magic);
    return 0;
}

bool rg_scan_settings_ok(uint32_t files, int64_t window_ns)
{
    if (files == 0)
        return window_ns >= 0 && window_ns <= RG_SCAN_WINDOW_MAX_NS;
    return files <= RG_SCAN_FILES_MAX && window_ns > 0 && window_ns <= RG_SCAN_WINDOW_MAX_NS;
}

/* The first NUL of p[0..n), or NULL. A loop, not memchr: every process
 * validates once, at its first attach, often at exit, where memchr would
 * be one more libc function for ld.so to bind (some 700 instructions) to
 * scan a few dozen bytes. */
static const char *nul_in(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!p[i])
            return p + i;
    return NULL;
}

static bool strings_fit(const char *area, size_t len, uint32_t count)
{
    const char *p = area, *end = area + len;
    for (uint32_t i = 0; i < count; i++) {
        const char *nul = nul_in(p, (size_t)(end - p));
        if (!nul || p[0] != '/')
            return false;
        p = nul + 1;
    }
    return true;
}

const char *rg_table_validate(const void *map, size_t size, uint32_t expect_uid)
{
    const struct rg_header *h = map;
    if (size < RG_HEADER_SIZE)
        return "it is too small to be a session table";
    if (memcmp(h->magic, RG_MAGIC, sizeof h->magic) != 0)
        return "it is not a readguard session table (wrong magic)";
    if (h->version != RG_TABLE_VERSION || h->header_size != RG_HEADER_SIZE ||
        h->entry_size != sizeof(struct rg_entry))
        return "it was made by another version of readguard";
    if (h->capacity < RG_MIN_CAPACITY || h->capacity > RG_MAX_CAPACITY ||
        h->index_slots != rg_table_index_slots(h->capacity) ||
        h->file_size != rg_table_file_size(h->capacity))
        return "its header is corrupt (sizes disagree)";
    if (h->file_size != size)
        return "it is truncated or padded (file size disagrees with its header)";
    if (h->uid != expect_uid)
        return RG_TABLE_OTHER_USER;
    if (h->mode > RG_MODE_WARN || !strings_fit(h->roots, sizeof h->roots, h->nroots) ||
        !nul_in(h->log_path, sizeof h->log_path) ||
        !nul_in(h->journal_dir, sizeof h->journal_dir) || (h->flags & ~RG_POLICY_KNOWN) ||
        h->read_ttl_ns < 0 || !rg_scan_settings_ok(h->scan_files, h->scan_window_ns) ||
        h->journal_max_file < 0 || h->ignores_len > sizeof h->ignores ||
        (h->ignores_len && h->ignores[h->ignores_len - 1] != '\0'))
        return "its settings are corrupt";
    uint32_t backed = atomic_load(&h->backed);
    if (atomic_load(&h->used) > backed || backed > h->capacity ||
        (backed % RG_BACK_CHUNK && backed != h->capacity) || atomic_load(&h->generation) == 0 ||
        atomic_load(&h->roomless) > 1)
        return "its counters are corrupt";
    if (h->pages != rg_table_page_count(h->index_slots))
        return "its header is corrupt (sizes disagree)";
    /* A bit past the last page would have a lookup trust a page that is
     * not there (the map's own last word, or the names past their end). */
    const uint64_t *pages = (const uint64_t *)((const char *)map + rg_table_pages_at(h->capacity));
    if (h->pages % 64 && pages[h->pages / 64] >> (h->pages % 64))
        return "its page map is corrupt";
    return NULL;
}

void rg_table_bind(struct rg_table *t, void *map, size_t size)
{
    t->hdr = map;
    t->capacity = t->hdr->capacity;
    t->index_slots = t->hdr->index_slots;
    t->index = (_Atomic uint32_t *)((char *)map + RG_HEADER_SIZE);
    t->entries = (struct rg_entry *)((char *)map + RG_HEADER_SIZE +
                                     (size_t)t->index_slots * sizeof(uint32_t));
    t->names = (_Atomic uint64_t *)(t->entries + t->capacity);
    t->pages = (_Atomic uint64_t *)(t->names + t->index_slots / 2);
    t->map_size = size;
    t->back = NULL;
}

uint32_t rg_table_used(const struct rg_table *t)
{
    uint32_t used = atomic_load(&t->hdr->used);
    return used < t->capacity ? used : t->capacity;
}

/* Index slot values are trusted only as far as they point inside the table:
 * the file is shared, and a corrupt slot must not become a wild read. */
static struct rg_entry *slot_entry(const struct rg_table *t, uint32_t v)
{
    return v - 1 < t->capacity ? &t->entries[v - 1] : NULL;
}

/* Probe i's line, when it opens one (a line of 16 slots lies in a page),
 * lies in a page not marked backed: it holds no key, and ends the probe as
 * an empty slot does. Each key's probe passed only through filled slots,
 * so through marked pages, on its way to where it was put. */
static inline bool line_unbacked(const struct rg_table *t, uint32_t i, uint32_t slot)
{
    return !(i & 15) && !rg_table_page_backed(t, slot >> RG_INDEX_PAGE_SHIFT);
}

struct rg_entry *rg_table_find(const struct rg_table *t, uint64_t dev, uint64_t ino)
{
    uint32_t mask = t->index_slots - 1;
    uint64_t h = key_hash(dev, ino);
    for (uint32_t i = 0; i < RG_MAX_PROBE; i++) {
        uint32_t s = probe_slot(h, ino, i, mask);
        if (line_unbacked(t, i, s))
            return NULL;
        uint32_t v = atomic_load_explicit(&t->index[s], memory_order_acquire);
        if (v == 0)
            return NULL;
        struct rg_entry *e = slot_entry(t, v);
        if (e && e->ino == ino && e->dev == dev)
            return e;
    }
    return NULL;
}

/* Only from room: a table warned of stays so (enum rg_full). */
static void mark_full(struct rg_table *t)
{
    uint32_t room = RG_FULL_NOT;
    atomic_compare_exchange_strong_explicit(&t->hdr->full, &room, RG_FULL, memory_order_relaxed,
                                            memory_order_relaxed);
}

void rg_table_backed_raise(struct rg_header *h, uint32_t to)
{
    uint32_t was = atomic_load_explicit(&h->backed, memory_order_relaxed);
    while (was < to && !atomic_compare_exchange_weak_explicit(
                           &h->backed, &was, to, memory_order_release, memory_order_relaxed))
        ;
}

/* The file system refused room: the table is full, and says why. */
static void no_room(struct rg_table *t)
{
    atomic_store_explicit(&t->hdr->roomless, 1, memory_order_relaxed);
    mark_full(t);
}

/* What a claim lacks (find_or_claim's *lack): nothing, the next entry's
 * chunk, or LACK_PAGE + an index page. */
#define LACK_CHUNK 1u
#define LACK_PAGE 2u

/* Backs the chunk entry n opens. Every process finding n at the mark backs
 * it (a rare race; backing twice is harmless); none claims n before one has
 * succeeded, so none writes to a page the file system may not have. */
static bool back_chunk(struct rg_table *t, uint32_t n)
{
    uint32_t to = rg_table_chunk_end(n, t->capacity);
    size_t from = (size_t)((char *)&t->entries[n - n % RG_BACK_CHUNK] - (char *)t->hdr);
    if (t->back &&
        t->back(t, from, (size_t)(to - n + n % RG_BACK_CHUNK) * sizeof(struct rg_entry)) < 0)
        return false;
    rg_table_backed_raise(t->hdr, to);
    return true;
}

/* NULL with *lack when the next entry's chunk is not backed yet. */
static inline __attribute__((always_inline)) struct rg_entry *
claim_entry(struct rg_table *t, uint64_t dev, uint64_t ino, uint32_t *lack)
{
    /* A bounded compare-and-swap rather than fetch-and-add: a full table is
     * still asked on every read, and must not count past its capacity. */
    uint32_t n = atomic_load_explicit(&t->hdr->used, memory_order_relaxed);
    do {
        if (n >= t->capacity) {
            mark_full(t);
            return NULL;
        }
        if (n >= atomic_load_explicit(&t->hdr->backed, memory_order_acquire)) {
            *lack = LACK_CHUNK;
            return NULL;
        }
    } while (!atomic_compare_exchange_weak_explicit(&t->hdr->used, &n, n + 1, memory_order_relaxed,
                                                    memory_order_relaxed));
    struct rg_entry *e = &t->entries[n];
    /* The analyzer takes slot_entry()'s NULL for an out-of-range slot as a
     * NULL t->entries; n < capacity here, so e is inside the mapping. */
    e->ino = ino; /* NOLINT(clang-analyzer-core.NullDereference) */
    e->dev = (uint32_t)dev;
    return e;
}

static inline __attribute__((always_inline)) struct rg_entry *
find_or_claim(struct rg_table *t, uint64_t dev, uint64_t ino, uint32_t *lack,
              struct rg_entry **claimed)
{
    uint32_t mask = t->index_slots - 1;
    uint64_t h = key_hash(dev, ino);
    struct rg_entry *mine = *claimed;
    for (uint32_t i = 0; i < RG_MAX_PROBE; i++) {
        uint32_t s = probe_slot(h, ino, i, mask);
        /* The key is nowhere past here: it goes here, once the page is
         * backed, in the entry claimed meanwhile if there is one (another
         * key took the slot it was meant for), lest each such race lose
         * an entry of the table for good. */
        if (line_unbacked(t, i, s)) {
            *lack = LACK_PAGE + (s >> RG_INDEX_PAGE_SHIFT);
            *claimed = mine;
            return NULL;
        }
        _Atomic uint32_t *slot = &t->index[s];
        uint32_t v = atomic_load_explicit(slot, memory_order_acquire);
        if (v == 0) {
            if (!mine && !(mine = claim_entry(t, dev, ino, lack)))
                return NULL;
            uint32_t want = (uint32_t)(mine - t->entries) + 1;
            if (atomic_compare_exchange_strong_explicit(slot, &v, want, memory_order_release,
                                                        memory_order_acquire))
                return mine;
            /* Lost the slot: v now holds the winner, which may be our key. */
        }
        struct rg_entry *e = slot_entry(t, v);
        if (e && e->ino == ino && e->dev == dev)
            return e; /* an entry we claimed meanwhile stays unused */
    }
    mark_full(t);
    return NULL;
}

/* A claim that lacks a backed chunk or index page: backed, then the claim
 * again (it may fill up meanwhile, or reach another page). Reached by a
 * tail call, so that rg_table_find_or_add stays a leaf (a call in it cost
 * every lookup 8 instructions of registers saved). Without room nothing is
 * claimed, and the table answers as full. */
__attribute__((noinline, cold)) static struct rg_entry *
add_backed(struct rg_table *t, uint64_t dev, uint64_t ino, uint32_t lack, struct rg_entry *claimed)
{
    struct rg_entry *e = NULL;
    while (lack) {
        uint32_t n = atomic_load_explicit(&t->hdr->used, memory_order_relaxed);
        bool room = lack == LACK_CHUNK
                        ? n >= t->capacity ||
                              n < atomic_load_explicit(&t->hdr->backed, memory_order_acquire) ||
                              back_chunk(t, n)
                        : rg_table_page_back(t, lack - LACK_PAGE);
        if (!room) {
            no_room(t);
            return NULL;
        }
        lack = 0;
        e = find_or_claim(t, dev, ino, &lack, &claimed);
    }
    return e;
}

struct rg_entry *rg_table_find_or_add(struct rg_table *t, uint64_t dev, uint64_t ino)
{
    if (dev > UINT32_MAX)
        return NULL;
    uint32_t lack = 0;
    struct rg_entry *claimed = NULL;
    struct rg_entry *e = find_or_claim(t, dev, ino, &lack, &claimed);
    return __builtin_expect(lack != 0, 0) ? add_backed(t, dev, ino, lack, claimed) : e;
}

void rg_table_reset(struct rg_table *t)
{
    /* Generation 0 means "never"; wrap within RG_GEN_MASK and skip it. */
    uint32_t g = atomic_load(&t->hdr->generation), next;
    do
        next = (g + 1) & RG_GEN_MASK ? (g + 1) & RG_GEN_MASK : 1;
    while (!atomic_compare_exchange_weak(&t->hdr->generation, &g, next));
}
