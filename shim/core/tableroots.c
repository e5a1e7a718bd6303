/* The roots a table's header holds, read back: one by one, and as the list
 * READGUARD_ROOTS takes (core/table.h); and the scanners it names. Apart
 * from table.c, which is the index and its entries. */
#include "core/table.h"
#include <string.h>

const char *rg_table_root(const struct rg_header *h, const char *prev)
{
    if (h->nroots == 0)
        return NULL;
    if (!prev)
        return h->roots;
    const char *next = prev + strlen(prev) + 1;
    uint32_t i = 0;
    for (const char *p = h->roots; p != next; p += strlen(p) + 1)
        i++;
    return i < h->nroots ? next : NULL;
}

void rg_table_roots_list(const struct rg_header *h, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r)) {
        size_t n = strlen(r);
        if (strchr(r, ':') || o + (o > 0) + n >= cap) {
            o = 0;
            break;
        }
        if (o > 0)
            out[o++] = ':';
        memcpy(out + o, r, n);
        o += n;
    }
    if (o == 0)
        out[o++] = '/';
    out[o] = '\0';
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
