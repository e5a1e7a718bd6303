#include "core/policy.h"
#include <fcntl.h>

#include "core/content.h"
/* The decision's own copy is inline (policy.h): every judged write asks it. */
enum rg_stamp_match rg_record_match(const struct rg_file *f, const struct rg_record *r)
{
    return rg_record_match_at(f, r);
}

static bool stamp_matches(const struct rg_file *f, const struct rg_record *r)
{
    return rg_record_match_at(f, r) == RG_STAMP_MATCHES;
}

static bool expired(const struct rg_facts *facts) { return rg_read_expired(facts); }

static enum rg_reason why_refused(const struct rg_file *file, const struct rg_facts *facts)
{
    if (facts->table == RG_TABLE_BROKEN)
        return RG_WHY_NO_TABLE;
    if (stamp_matches(file, &facts->rec))
        return expired(facts) ? RG_WHY_EXPIRED : RG_WHY_SCANNED;
    if (facts->rec.found)
        return RG_WHY_CHANGED;
    return facts->table == RG_TABLE_FULL ? RG_WHY_TABLE_FULL : RG_WHY_UNREAD;
}

/* Appending without truncating cannot lose a byte that is there. */
static bool appends_only(int flags)
{
    return (flags & O_APPEND) && !(flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY;
}

/* What a write refused for reason may still be given, so no data is lost. */
static enum rg_action softened(const struct rg_request *req, const struct rg_facts *facts)
{
    bool opens = req->op == RG_OP_OPEN || req->op == RG_OP_SPAWN_OPEN;
    if (opens && (facts->policy & RG_POLICY_ALLOW_APPEND) && appends_only(req->flags))
        return RG_ALLOW_UNTRACKED;
    /* Warn mode never changes what a program gets. */
    if (facts->mode == RG_MODE_WARN)
        return RG_WARN;
    /* touch gets a descriptor that can set times and nothing else. What
     * else is shaped almost so is refused at the open, where the program
     * reports it: a read-only descriptor only makes truncate(1)'s ftruncate
     * fail EINVAL, unexplained where no hook sees it (a static busybox). */
    return req->op == RG_OP_OPEN && rg_flags_touch(req->flags) ? RG_READ_ONLY : RG_REFUSE;
}

struct rg_decision rg_decide_rest(const struct rg_request *req, const struct rg_file *file,
                                  const struct rg_facts *facts, enum rg_stamp_match m)
{
    struct rg_decision allow = {RG_ALLOW, RG_WHY_OK};
    if (facts->table != RG_TABLE_BROKEN) {
        if (m == RG_STAMP_ASK_BYTES)
            return (struct rg_decision){RG_NEED_HASH, RG_WHY_OK};
        bool counts = m == RG_STAMP_MATCHES && !expired(facts);
        /* Another process of this session is writing it right now: the stamp
         * is moving under our feet, and that is the session's own doing. */
        if (facts->rec.writers > 0 && facts->writer_alive)
            return allow;
        /* A scan unlocks the files for the scanner and its descendants only.
         * Asked before the scope: for the scanner itself (sed -i, git
         * checkout) the answer costs one getpid, the scope a path lookup. */
        if (counts && facts->lineage == RG_LINEAGE_UNKNOWN)
            return (struct rg_decision){RG_NEED_LINEAGE, RG_WHY_OK};
        if (counts && facts->lineage == RG_LINEAGE_DESCENDS)
            return allow;
    }
    /* Only a write that would be refused pays for working out its scope. */
    if (file->scope == RG_SCOPE_UNKNOWN)
        return (struct rg_decision){RG_NEED_SCOPE, RG_WHY_OK};
    if (file->scope == RG_SCOPE_FREE)
        return allow;
    /* The journal's third answer, which only the kept bytes earn: without
     * a journal, or where it could not keep them (too large, unreadable, a
     * full or read-only journal), nothing would, so the path is guarded like
     * any other. A new name destroys nothing: it needs no keeping. */
    bool journaled = file->scope == RG_SCOPE_JOURNALED && !(facts->policy & RG_POLICY_NO_JOURNAL);
    if (journaled && req->op == RG_OP_LINK)
        return allow;
    if (journaled && file->unkept == RG_UNKEPT_NONE)
        return (struct rg_decision){RG_ALLOW_KEPT, RG_WHY_OK};
    /* A new name outside guarded scope (a hard link, a rename out of the
     * roots or under an ignored name) would let the file be written through
     * it unguarded: giving it one is a write. One inside is only a name. */
    if (req->op == RG_OP_LINK && file->new_scope == RG_SCOPE_UNKNOWN)
        return (struct rg_decision){RG_NEED_NEW_SCOPE, RG_WHY_OK};
    if (req->op == RG_OP_LINK && file->new_scope == RG_SCOPE_GUARDED)
        return allow;
    bool unkept = journaled || file->unkept != RG_UNKEPT_NONE;
    return (struct rg_decision){softened(req, facts),
                                unkept ? RG_WHY_UNKEPT : why_refused(file, facts)};
}

int64_t rg_restamp_pause_ns(int look)
{
    int64_t pause = RG_RESTAMP_FIRST_NS, waited = 0;
    for (int i = 0; i < look && waited <= RG_RESTAMP_WAIT_NS; i++) {
        waited += pause;
        pause = pause * 2 < RG_RESTAMP_STEP_NS ? pause * 2 : RG_RESTAMP_STEP_NS;
    }
    return look < 0 || waited + pause > RG_RESTAMP_WAIT_NS ? 0 : pause;
}

const char *rg_reason_name(enum rg_reason r)
{
    switch (r) {
    case RG_WHY_OK: return "ok";
    case RG_WHY_UNREAD: return "unread";
    case RG_WHY_CHANGED: return "changed";
    case RG_WHY_TABLE_FULL: return "table-full";
    case RG_WHY_NO_TABLE: return "no-table";
    case RG_WHY_EXPIRED: return "expired";
    case RG_WHY_SCANNED: return "scanned";
    case RG_WHY_SEALED: return "sealed";
    case RG_WHY_REPLACED: return "replaced";
    case RG_WHY_UNKEPT: return "unkept";
    }
    return "?";
}
