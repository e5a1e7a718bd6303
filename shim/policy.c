#include "policy.h"

static bool stamp_matches(const struct rg_file *f, const struct rg_record *r)
{
    return r->found && r->mtime_ns == f->mtime_ns && r->size == f->size;
}

static enum rg_reason why_refused(const struct rg_facts *facts)
{
    if (facts->table == RG_TABLE_BROKEN)
        return RG_WHY_NO_TABLE;
    if (facts->rec.found)
        return RG_WHY_CHANGED;
    return facts->table == RG_TABLE_FULL ? RG_WHY_TABLE_FULL : RG_WHY_UNREAD;
}

struct rg_decision rg_decide(const struct rg_request *req, const struct rg_file *file,
                             const struct rg_facts *facts)
{
    struct rg_decision allow = {RG_ALLOW, RG_WHY_OK};
    bool opens = req->op == RG_OP_OPEN || req->op == RG_OP_SPAWN_OPEN;
    bool writes = !opens || rg_flags_write(req->flags);

    /* Creating a file loses nothing; neither does writing to a pipe or tty. */
    if (!writes || !file->exists || !file->regular)
        return allow;
    if (facts->table != RG_TABLE_BROKEN) {
        if (stamp_matches(file, &facts->rec))
            return allow;
        /* Another process of this session is writing it right now: the stamp
         * is moving under our feet, and that is the session's own doing. */
        if (facts->rec.writers > 0 && facts->writer_alive)
            return allow;
    }
    /* Only a write that would be refused pays for working out its scope. */
    if (file->scope == RG_SCOPE_UNKNOWN)
        return (struct rg_decision){RG_NEED_SCOPE, RG_WHY_OK};
    if (file->scope == RG_SCOPE_FREE)
        return allow;
    enum rg_action act = facts->mode == RG_MODE_WARN ? RG_WARN : RG_REFUSE;
    return (struct rg_decision){act, why_refused(facts)};
}

const char *rg_reason_name(enum rg_reason r)
{
    switch (r) {
    case RG_WHY_OK: return "ok";
    case RG_WHY_UNREAD: return "unread";
    case RG_WHY_CHANGED: return "changed";
    case RG_WHY_TABLE_FULL: return "table-full";
    case RG_WHY_NO_TABLE: return "no-table";
    }
    return "?";
}
