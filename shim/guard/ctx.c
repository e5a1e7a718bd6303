#include "guard/ctx.h"

void rg_ctx_use_table(struct rg_ctx *c)
{
    const struct rg_header *h = c->table.hdr;
    c->table_state = RG_TABLE_OK;
    c->mode = (enum rg_mode)h->mode;
    c->policy = h->flags;
    /* Nowhere to keep old bytes is no journal: the decision, which sees only
     * the knobs, must not journal there (rg_decide, RG_SCOPE_JOURNALED). */
    if (!h->journal_dir[0])
        c->policy |= RG_POLICY_NO_JOURNAL;
    c->read_ttl_ns = h->read_ttl_ns;
    c->ignores = h->ignores;
    c->ignores_len = h->ignores_len;
    /* Kept under another table's rules. A process's first table finds
     * them empty, on pages it need not fault in to say so. */
    if (c->caches_used) {
        rg_tiercache_reset(&c->tiers);
        rg_jpaths_reset(&c->jpaths);
    }
    c->caches_used = true;
    for (const char *r = rg_table_root(h, NULL); r && c->nroots < RG_MAX_ROOTS;
         r = rg_table_root(h, r))
        rg_ctx_add_root(c, r);
}

struct rg_facts rg_facts_for(struct rg_ctx *c, const struct rg_entry *e)
{
    struct rg_facts f;
    rg_facts_load(c, e, &f, -1);
    return f;
}
