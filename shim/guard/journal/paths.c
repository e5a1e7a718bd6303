#include "guard/journal/paths.h"

#include "core/jrecord.h"
#include "core/text.h"
static void build(const struct rg_header *h, char *objects, char *index)
{
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, h->created_ns, h->creator_pid);
    rg_concat(objects, RG_JPATH, h->journal_dir, "/", RG_JOURNAL_OBJECTS);
    rg_concat(index, RG_JPATH, h->journal_dir, "/", RG_JOURNAL_SESSIONS, "/", id, ".jsonl");
}

void rg_jpaths_get(struct rg_jpaths *p, const struct rg_header *h, char *objects_buf,
                   char *index_buf, const char **objects, const char **index)
{
    int s = atomic_load_explicit(&p->state, memory_order_acquire);
    if (s == 0 && atomic_compare_exchange_strong_explicit(&p->state, &s, 1, memory_order_acquire,
                                                          memory_order_relaxed)) {
        build(h, p->objects, p->index);
        atomic_store_explicit(&p->state, 2, memory_order_release);
        s = 2;
    }
    if (s == 2) {
        *objects = p->objects, *index = p->index;
        return;
    }
    build(h, objects_buf, index_buf);
    *objects = objects_buf, *index = index_buf;
}
