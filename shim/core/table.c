#include "core/table.h"
#include <errno.h>
#include <string.h>

/* Memory orders: an entry's key is written before the index slot that
 * publishes it (release) and read after loading that slot (acquire). What
 * an entry holds, and how it is stamped, is core/entry.c's. */
static size_t index_slots_for(uint32_t capacity)
{
    size_t slots = 1024;
    while (slots < 2 * (size_t)capacity)
        slots <<= 1;
    return slots;
}

size_t rg_table_file_size(uint32_t capacity)
{
    size_t slots = index_slots_for(capacity);
    return RG_HEADER_SIZE + slots * sizeof(uint32_t) + (size_t)capacity * sizeof(struct rg_entry) +
           slots / 2 * sizeof(uint64_t);
}

size_t rg_table_entries_at(uint32_t capacity)
{
    return RG_HEADER_SIZE + index_slots_for(capacity) * sizeof(uint32_t);
}

size_t rg_table_names_at(uint32_t capacity)
{
    return rg_table_entries_at(capacity) + (size_t)capacity * sizeof(struct rg_entry);
}

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

int rg_table_format(void *map, size_t size, const struct rg_settings *s, uint32_t uid,
                    int32_t creator_pid, int64_t now_ns)
{
    struct rg_header *h = map;
    if (s->capacity < RG_MIN_CAPACITY || s->capacity > RG_MAX_CAPACITY)
        return -EINVAL;
    if (size != rg_table_file_size(s->capacity))
        return -EINVAL;

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
    h->index_slots = (uint32_t)index_slots_for(s->capacity);
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
        h->index_slots != index_slots_for(h->capacity) ||
        h->file_size != rg_table_file_size(h->capacity))
        return "its header is corrupt (sizes disagree)";
    if (h->file_size != size)
        return "it is truncated or padded (file size disagrees with its header)";
    if (h->uid != expect_uid)
        return "it belongs to another user";
    if (h->mode > RG_MODE_WARN || !strings_fit(h->roots, sizeof h->roots, h->nroots) ||
        !nul_in(h->log_path, sizeof h->log_path) ||
        !nul_in(h->journal_dir, sizeof h->journal_dir) || (h->flags & ~RG_POLICY_KNOWN) ||
        h->read_ttl_ns < 0 || !rg_scan_settings_ok(h->scan_files, h->scan_window_ns) ||
        h->journal_max_file < 0 || h->ignores_len > sizeof h->ignores ||
        (h->ignores_len && h->ignores[h->ignores_len - 1] != '\0'))
        return "its settings are corrupt";
    uint32_t backed = atomic_load(&h->backed);
    if (atomic_load(&h->used) > backed || backed > h->capacity ||
        (backed % RG_BACK_CHUNK && backed != h->capacity) || atomic_load(&h->generation) == 0)
        return "its counters are corrupt";
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

struct rg_entry *rg_table_find(const struct rg_table *t, uint64_t dev, uint64_t ino)
{
    uint32_t mask = t->index_slots - 1;
    uint64_t h = key_hash(dev, ino);
    for (uint32_t i = 0; i < RG_MAX_PROBE; i++) {
        uint32_t v =
            atomic_load_explicit(&t->index[probe_slot(h, ino, i, mask)], memory_order_acquire);
        if (v == 0)
            return NULL;
        struct rg_entry *e = slot_entry(t, v);
        if (e && e->ino == ino && e->dev == dev)
            return e;
    }
    return NULL;
}

/* Keeps a 2 (full, and a process said so) from going back to 1. */
static void mark_full(struct rg_table *t)
{
    uint32_t room = 0;
    atomic_compare_exchange_strong_explicit(&t->hdr->full, &room, 1, memory_order_relaxed,
                                            memory_order_relaxed);
}

void rg_table_backed_raise(struct rg_header *h, uint32_t to)
{
    uint32_t was = atomic_load_explicit(&h->backed, memory_order_relaxed);
    while (was < to && !atomic_compare_exchange_weak_explicit(
                           &h->backed, &was, to, memory_order_release, memory_order_relaxed))
        ;
}

/* Backs the chunk entry n opens. Every process finding n at the mark backs
 * it (a rare race; backing twice is harmless); none claims n before one has
 * succeeded, so none writes to a page the file system may not have. */
static bool back_chunk(struct rg_table *t, uint32_t n)
{
    uint32_t to = rg_table_chunk_end(n, t->capacity);
    if (t->back && t->back(t, n - n % RG_BACK_CHUNK, to) < 0)
        return false;
    rg_table_backed_raise(t->hdr, to);
    return true;
}

/* NULL with *unbacked when the next entry's chunk is not backed yet. */
static inline __attribute__((always_inline)) struct rg_entry *
claim_entry(struct rg_table *t, uint64_t dev, uint64_t ino, bool *unbacked)
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
            *unbacked = true;
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
find_or_claim(struct rg_table *t, uint64_t dev, uint64_t ino, bool *unbacked)
{
    uint32_t mask = t->index_slots - 1;
    uint64_t h = key_hash(dev, ino);
    struct rg_entry *mine = NULL;
    for (uint32_t i = 0; i < RG_MAX_PROBE; i++) {
        _Atomic uint32_t *slot = &t->index[probe_slot(h, ino, i, mask)];
        uint32_t v = atomic_load_explicit(slot, memory_order_acquire);
        if (v == 0) {
            if (!mine && !(mine = claim_entry(t, dev, ino, unbacked)))
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

/* A claim at the backed mark: the chunk backed, then the claim again (it may
 * fill up meanwhile). Reached by a tail call, so that rg_table_find_or_add
 * stays a leaf (a call in it cost every lookup 8 instructions of registers
 * saved). Without room nothing is claimed, and the table answers as full. */
__attribute__((noinline, cold)) static struct rg_entry *add_backed(struct rg_table *t, uint64_t dev,
                                                                   uint64_t ino)
{
    bool unbacked = true;
    struct rg_entry *e = NULL;
    while (unbacked) {
        uint32_t n = atomic_load_explicit(&t->hdr->used, memory_order_relaxed);
        if (n < t->capacity && n >= atomic_load_explicit(&t->hdr->backed, memory_order_acquire) &&
            !back_chunk(t, n)) {
            mark_full(t);
            return NULL;
        }
        unbacked = false;
        e = find_or_claim(t, dev, ino, &unbacked);
    }
    return e;
}

struct rg_entry *rg_table_find_or_add(struct rg_table *t, uint64_t dev, uint64_t ino)
{
    if (dev > UINT32_MAX)
        return NULL;
    bool unbacked = false;
    struct rg_entry *e = find_or_claim(t, dev, ino, &unbacked);
    return __builtin_expect(unbacked, 0) ? add_backed(t, dev, ino) : e;
}

/* Two scanners sharing a slot may mix their names: a message may then name
 * the wrong program, never allow a write. */
void rg_scanner_note(struct rg_header *h, int32_t pid, const char *prog)
{
    struct rg_scanner *s = &h->scanners[(uint32_t)pid % RG_SCANNERS];
    atomic_store_explicit(&s->pid, 0, memory_order_relaxed);
    strncpy(s->prog, prog, sizeof s->prog - 1);
    s->prog[sizeof s->prog - 1] = '\0';
    atomic_store_explicit(&s->pid, pid, memory_order_release);
}

void rg_scanner_name(const struct rg_header *h, int32_t pid, char out[16])
{
    const struct rg_scanner *s = &h->scanners[(uint32_t)pid % RG_SCANNERS];
    out[0] = '\0';
    if (pid > 0 && atomic_load_explicit(&s->pid, memory_order_acquire) == pid) {
        memcpy(out, s->prog, 15);
        out[15] = '\0';
    }
}

/* A name slot packs the key's top bits with the entry number + 1, in one
 * word so that no reader sees half of a note. RG_MAX_CAPACITY fits. */
#define NAME_ENTRY_BITS 27u
#define NAME_ENTRY_MASK ((1ull << NAME_ENTRY_BITS) - 1)
_Static_assert(RG_MAX_CAPACITY < NAME_ENTRY_MASK, "entry numbers fit a name slot");

static _Atomic uint64_t *name_slot(const struct rg_table *t, uint64_t key)
{
    return &t->names[key & (t->index_slots / 2 - 1)];
}

void rg_table_name_note(const struct rg_table *t, uint64_t key, const struct rg_entry *e)
{
    uint64_t v = (key & ~NAME_ENTRY_MASK) | ((uint64_t)(e - t->entries) + 1);
    _Atomic uint64_t *slot = name_slot(t, key);
    /* Most reads are of a name already noted: do not dirty its line again. */
    if (atomic_load_explicit(slot, memory_order_relaxed) != v)
        atomic_store_explicit(slot, v, memory_order_relaxed);
}

struct rg_entry *rg_table_name_find(const struct rg_table *t, uint64_t key)
{
    uint64_t v = atomic_load_explicit(name_slot(t, key), memory_order_relaxed);
    if (v == 0 || (v & ~NAME_ENTRY_MASK) != (key & ~NAME_ENTRY_MASK))
        return NULL;
    /* The table is shared: a corrupt slot must not become a wild read. */
    uint64_t n = v & NAME_ENTRY_MASK;
    return n - 1 < t->capacity ? &t->entries[n - 1] : NULL;
}

void rg_table_reset(struct rg_table *t)
{
    /* Generation 0 means "never"; wrap within RG_GEN_MASK and skip it. */
    uint32_t g = atomic_load(&t->hdr->generation), next;
    do
        next = (g + 1) & RG_GEN_MASK ? (g + 1) & RG_GEN_MASK : 1;
    while (!atomic_compare_exchange_weak(&t->hdr->generation, &g, next));
}
