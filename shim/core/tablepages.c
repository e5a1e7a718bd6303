/* The table's page map (core/table.h, rg_table.pages), and the names of
 * reads, which live in pages backed as they are first noted. Apart from
 * table.c, which is the index and its entries. */
#include "core/table.h"

/* The page map's area is whole pages, so that backing the names' last
 * page never reaches past the file. */
static size_t page_map_size(size_t slots)
{
    size_t bytes = ((size_t)rg_table_page_count(slots) + 63) / 64 * sizeof(uint64_t);
    return (bytes + RG_PAGE_SIZE - 1) & ~(size_t)(RG_PAGE_SIZE - 1);
}

size_t rg_table_file_size(uint32_t capacity)
{
    return rg_table_pages_at(capacity) + page_map_size(rg_table_index_slots(capacity));
}

size_t rg_table_entries_at(uint32_t capacity)
{
    return RG_HEADER_SIZE + rg_table_index_slots(capacity) * sizeof(uint32_t);
}

size_t rg_table_names_at(uint32_t capacity)
{
    return rg_table_entries_at(capacity) + (size_t)capacity * sizeof(struct rg_entry);
}

size_t rg_table_pages_at(uint32_t capacity)
{
    return rg_table_names_at(capacity) + rg_table_index_slots(capacity) / 2 * sizeof(uint64_t);
}

/* Where page p of the index (the first index_slots >> RG_INDEX_PAGE_SHIFT),
 * or of the names (the rest), lies in the mapping. */
static size_t page_at(const struct rg_table *t, uint32_t p)
{
    uint32_t index_pages = t->index_slots >> RG_INDEX_PAGE_SHIFT;
    const char *area = p < index_pages ? (const char *)t->index : (const char *)t->names;
    uint32_t in = p < index_pages ? p : p - index_pages;
    return (size_t)(area - (const char *)t->hdr) + ((size_t)in << RG_PAGE_SHIFT);
}

/* Marked only once backed: a process killed in between leaves the page
 * backed and unmarked, and the next to need it backs it again. Concurrent
 * backers of one page both back it (harmless) and both set its bit. */
bool rg_table_page_back(const struct rg_table *t, uint32_t p)
{
    if (t->back && t->back(t, page_at(t, p), RG_PAGE_SIZE) < 0)
        return false;
    atomic_fetch_or_explicit(&t->pages[p >> 6], 1ull << (p & 63), memory_order_release);
    return true;
}

/* A name slot packs the key's top bits with the entry number + 1, in one
 * word so that no reader sees half of a note. RG_MAX_CAPACITY fits. */
#define NAME_ENTRY_BITS 27u
#define NAME_ENTRY_MASK ((1ull << NAME_ENTRY_BITS) - 1)
_Static_assert(RG_MAX_CAPACITY < NAME_ENTRY_MASK, "entry numbers fit a name slot");

static uint32_t name_slot(const struct rg_table *t, uint64_t key)
{
    return (uint32_t)(key & (t->index_slots / 2 - 1));
}

/* The page map's bit for the names page of slot s: after the index's. */
static uint32_t name_page(const struct rg_table *t, uint32_t s)
{
    return (t->index_slots >> RG_INDEX_PAGE_SHIFT) + (s >> RG_NAMES_PAGE_SHIFT);
}

void rg_table_name_note(const struct rg_table *t, uint64_t key, const struct rg_entry *e)
{
    uint64_t v = (key & ~NAME_ENTRY_MASK) | ((uint64_t)(e - t->entries) + 1);
    uint32_t s = name_slot(t, key);
    /* A note the file system has no room for is lost, as one overwritten
     * is: the table is not full for it. */
    if (!rg_table_page_backed(t, name_page(t, s)) && !rg_table_page_back(t, name_page(t, s)))
        return;
    _Atomic uint64_t *slot = &t->names[s];
    /* Most reads are of a name already noted: do not dirty its line again. */
    if (atomic_load_explicit(slot, memory_order_relaxed) != v)
        atomic_store_explicit(slot, v, memory_order_relaxed);
}

struct rg_entry *rg_table_name_find(const struct rg_table *t, uint64_t key)
{
    uint32_t s = name_slot(t, key);
    if (!rg_table_page_backed(t, name_page(t, s)))
        return NULL; /* nothing was ever noted there */
    uint64_t v = atomic_load_explicit(&t->names[s], memory_order_relaxed);
    if (v == 0 || (v & ~NAME_ENTRY_MASK) != (key & ~NAME_ENTRY_MASK))
        return NULL;
    /* The table is shared: a corrupt slot must not become a wild read. */
    uint64_t n = v & NAME_ENTRY_MASK;
    return n - 1 < t->capacity ? &t->entries[n - 1] : NULL;
}
