#include "guard/ctx.h"
#include <unistd.h>

#include "os/clock.h"
#include "os/procfd.h"
#include "os/sys.h"
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
    c->tiers.len = 0; /* kept under another table's rules */
    for (const char *r = rg_table_root(h, NULL); r && c->nroots < RG_MAX_ROOTS;
         r = rg_table_root(h, r))
        rg_ctx_add_root(c, r);
}

void rg_facts_load(struct rg_ctx *c, const struct rg_entry *e, struct rg_facts *f)
{
    *f = (struct rg_facts){.table = c->table_state,
                           .mode = c->mode,
                           .policy = c->policy,
                           .read_ttl_ns = c->read_ttl_ns};
    if (f->read_ttl_ns > 0)
        f->now_ns = rg_now_ns();
    if (c->table_state == RG_TABLE_BROKEN)
        return;
    f->journal_max_file = c->table.hdr ? c->table.hdr->journal_max_file : 0;
    f->rec = rg_entry_load(&c->table, e);
    if (f->rec.writers > 0)
        f->writer_alive = rg_pid_holds(f->rec.writer_pid, e->dev, e->ino);
    if (!e && atomic_load_explicit(&c->table.hdr->full, memory_order_relaxed))
        f->table = RG_TABLE_FULL;
}

struct rg_facts rg_facts_for(struct rg_ctx *c, const struct rg_entry *e)
{
    struct rg_facts f;
    rg_facts_load(c, e, &f);
    return f;
}

int32_t rg_ctx_pid(const struct rg_ctx *c)
{
    return c->actor ? c->actor->pid : (int32_t)rg_sys_getpid();
}
