/* The decision: may this write happen? A pure function of the request, the
 * file as it is now and what the session recorded about it. It does no I/O,
 * so every case is unit-tested without preloading anything. */
#ifndef RG_POLICY_H
#define RG_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/content.h"
#include "core/request.h"
#include "core/table.h"
enum rg_scope {
    RG_SCOPE_UNKNOWN,   /* not worked out yet: it costs a path lookup */
    RG_SCOPE_GUARDED,   /* under a root: refused unless read */
    RG_SCOPE_FREE,      /* outside every root, or free by the ignore rules */
    RG_SCOPE_JOURNALED, /* allowed unread, its old bytes kept (git ignores it) */
};

enum rg_table_state { RG_TABLE_OK, RG_TABLE_FULL, RG_TABLE_BROKEN };

/* Why the journal could not keep a file's old bytes, once it tried. */
enum rg_unkept {
    RG_UNKEPT_NONE,       /* kept, or not tried yet */
    RG_UNKEPT_TOO_LARGE,  /* a copy larger than the per-file cap (--journal-max-file) */
    RG_UNKEPT_UNREADABLE, /* the session cannot read the file */
    RG_UNKEPT_JOURNAL,    /* the journal cannot be written (full, read-only) */
};

/* The target of a write as it is now, from fstat of the descriptor the check
 * is about (or lstat/stat for rename and truncate). */
struct rg_file {
    bool exists;
    bool regular;
    bool unnamed; /* no link left (st_nlink 0): only open descriptors reach it */
    uint64_t dev;
    uint64_t ino;
    int64_t mtime_ns;
    int64_t ctime_ns; /* moved by any change; no user can set it back */
    int64_t size;
    enum rg_scope scope;
    enum rg_scope new_scope;    /* RG_OP_LINK: the scope of the new name */
    bool hashed;                /* hash below was taken (RG_NEED_HASH asked for it) */
    uint32_t hash;              /* rg_content_hash() now; 0: could not be read */
    enum rg_unkept unkept;      /* the journal tried to keep its bytes, and could not */
    int unkept_err;             /* the errno of that, or 0 */
    const char *unkept_errname; /* its name (ENOSPC), or NULL */
    bool in_journal;            /* in the session's journal, which a --strict tree may not
                                   change (sealed, as the table) */
    bool in_log;                /* with in_journal: the session's log, sealed as it */
    bool in_table;              /* with in_journal: another session's table, sealed as it */
};

/* Does the writer descend from the process that scanned the file (or is it
 * that process)? Worked out only when a write depends on it. */
enum rg_lineage { RG_LINEAGE_UNKNOWN, RG_LINEAGE_DESCENDS, RG_LINEAGE_OTHER };

struct rg_facts {
    struct rg_record rec;
    enum rg_lineage lineage; /* of the writer, to rec.reader's pid */
    bool writer_alive;       /* rec.writer_pid still holds the file open */
    enum rg_table_state table;
    enum rg_mode mode;
    uint32_t policy;          /* RG_POLICY_* knobs of the session */
    int64_t read_ttl_ns;      /* 0: reads never expire */
    int64_t now_ns;           /* wall clock, needed only with a read TTL */
    int64_t journal_max_file; /* the journal's per-file cap, for the reason text */
    bool sealed;              /* the session's own table or journal, under --strict: the
                                 tree's to neither read nor change, whatever the call */
    bool own_table;           /* the session's own table, to a preloaded process: cut
                                 short, it would raise SIGBUS in every process mapping it */
};

enum rg_action {
    RG_ALLOW,
    RG_NEED_SCOPE, /* ask again with file.scope worked out */
    RG_WARN,       /* allow, but report what enforce mode would refuse */
    RG_REFUSE,
    RG_ALLOW_UNTRACKED, /* allow (--allow-append), but the write must not make the file known */
    RG_READ_ONLY,       /* a timestamp-only open (touch): give it a read-only descriptor */
    RG_NEED_HASH,       /* ask again with file.hash taken: only the bytes can tell */
    RG_NEED_LINEAGE,    /* ask again with facts.lineage worked out */
    RG_NEED_NEW_SCOPE,  /* ask again with file.new_scope worked out */
    RG_ALLOW_KEPT,      /* allow only once the old bytes are kept; if they cannot be,
                           ask again with file.unkept worked out */
};

enum rg_reason {
    RG_WHY_OK,
    RG_WHY_UNREAD,     /* never read in this session */
    RG_WHY_CHANGED,    /* changed since this session read it */
    RG_WHY_TABLE_FULL, /* unrecorded, and the table has no room to record it */
    RG_WHY_NO_TABLE,   /* the session table is missing or unusable */
    RG_WHY_EXPIRED,    /* read, but longer ago than the session's --read-ttl */
    RG_WHY_SCANNED,    /* only read by a scan of another process's line */
    RG_WHY_SEALED,     /* the session's own table, out of a --strict tree's reach */
    RG_WHY_REPLACED,   /* unread, but another file had its name when it was read */
    RG_WHY_UNKEPT,     /* journaled, unread, and the journal could not keep its bytes */
};

struct rg_decision {
    enum rg_action action;
    enum rg_reason reason;
};

/* Is f what the session recorded in r? RG_STAMP_ASK_BYTES: mtime, ctime or the
 * tick cannot tell, and r holds a hash that can; ask again with f hashed. */
enum rg_stamp_match { RG_STAMP_MATCHES, RG_STAMP_DIFFERS, RG_STAMP_ASK_BYTES };
enum rg_stamp_match rg_record_match(const struct rg_file *f, const struct rg_record *r);

/* The same, inline, for the decision. The stamp says so when mtime, ctime
 * and size all match: a user can put mtime back (touch -d, cp -p, rsync -t,
 * tar -x) but not ctime. Where the stamp cannot be trusted and the record
 * holds a hash of the bytes, the bytes decide: a racy record (a change in
 * the read's own tick keeps the whole stamp), and a file hashed whole whose
 * stamp moved but whose size did not (touch, chmod, a checkout or sync of
 * the same bytes). A larger file whose ctime moved counts as changed: a
 * hash of its first bytes cannot vouch for the rest. */
static inline enum rg_stamp_match rg_record_match_at(const struct rg_file *f,
                                                     const struct rg_record *r)
{
    if (!r->found || r->size != f->size)
        return RG_STAMP_DIFFERS;
    bool same_stamp = r->mtime_ns == f->mtime_ns && r->ctime_ns == f->ctime_ns;
    bool bytes_decide =
        r->hash && (same_stamp ? rg_stamp_racy(r->mtime_ns, r->read_ns) : r->size <= RG_HASH_MAX);
    if (!bytes_decide)
        return same_stamp ? RG_STAMP_MATCHES : RG_STAMP_DIFFERS;
    if (!f->hashed)
        return RG_STAMP_ASK_BYTES;
    return f->hash == r->hash ? RG_STAMP_MATCHES : RG_STAMP_DIFFERS;
}

/* Was the record's read a scan by a process other than the writer's line?
 * Only the lineage fact tells; rg_decide asks for it. */
static inline bool rg_record_scanned(const struct rg_record *r)
{
    return r->found && (r->reader & RG_READER_SCAN);
}

/* Does r, loaded for f, vouch for its bytes by itself: a match by the
 * stamp (or the hash, f hashed) of a read that was no other line's scan?
 * *m: the match. rg_decide_head asks this, then the read TTL. */
static inline bool rg_record_vouches(const struct rg_file *f, const struct rg_record *r,
                                     enum rg_stamp_match *m)
{
    *m = rg_record_match_at(f, r);
    return *m == RG_STAMP_MATCHES && !rg_record_scanned(r);
}

/* Is r the session's own write (or bytes the journal kept) of a file so
 * stamped: nothing for the journal to keep again? */
static inline bool rg_record_own_as(const struct rg_record *r, int64_t mtime_ns, int64_t ctime_ns,
                                    int64_t size)
{
    return r->written && r->found && r->mtime_ns == mtime_ns && r->size == size &&
           r->ctime_ns == ctime_ns;
}

/* Has the read outlived the session's --read-ttl? */
static inline bool rg_read_expired(const struct rg_facts *facts)
{
    return facts->read_ttl_ns > 0 && facts->now_ns - facts->rec.read_ns > facts->read_ttl_ns;
}

/* rg_decide past its first answers, m being the record's match (anything,
 * if the table is broken): where a write is refused, or asks for more. */
struct rg_decision rg_decide_rest(const struct rg_request *req, const struct rg_file *file,
                                  const struct rg_facts *facts, enum rg_stamp_match m);

/* The decision's head: the answers the file and the record give alone,
 * which is every allowed write's. true with *d set when it answers; false
 * with *m (the record's match, anything if the table is broken) when
 * rg_decide_rest must go on. Inline, and apart, so that a hook asking only
 * "allowed at once?" builds no facts in memory for a call. */
static inline __attribute__((always_inline)) bool
rg_decide_head(const struct rg_request *req, const struct rg_file *file,
               const struct rg_facts *facts, struct rg_decision *d, enum rg_stamp_match *m)
{
    bool opens = req->op == RG_OP_OPEN || req->op == RG_OP_SPAWN_OPEN;
    bool writes = !opens || rg_flags_write(req->flags);
    *d = (struct rg_decision){RG_ALLOW, RG_WHY_OK};
    /* A tree that could edit its own table could unlock any file. Removing
     * it is not refused: `readguard end` does that, and a process that then
     * finds no table fails closed under the session's roots. */
    if (facts->sealed || (facts->own_table && writes && req->op != RG_OP_UNLINK)) {
        *d = (struct rg_decision){RG_REFUSE, RG_WHY_SEALED};
        return true;
    }
    /* A removal is free while the journal keeps the file; one it could
     * not keep, asked again (under --strict), is judged as a write. */
    if (req->op == RG_OP_UNLINK && !(facts->policy & RG_POLICY_GUARD_UNLINK) &&
        file->unkept == RG_UNKEPT_NONE)
        return true;
    /* Creating a file loses nothing; neither does writing to a pipe or tty,
     * or to a file that lost its last name while open (replaced by a rename,
     * removed): no name can show its bytes again, so nothing visible is
     * lost, and the session's own rename is what unnamed it, often as not. */
    if (!writes || !file->exists || !file->regular || file->unnamed)
        return true;
    *m = RG_STAMP_DIFFERS;
    if (facts->table == RG_TABLE_BROKEN)
        return false;
    return rg_record_vouches(file, &facts->rec, m) && !rg_read_expired(facts);
}

/* Does e hold, settled, the session's own write of the bytes a file
 * stamped now has? Then rg_decide_head allows a write of the file at its first
 * look, but for what the caller asks itself (a read TTL, the table's own
 * file, --strict's seal), and the journal keeps nothing. The head's record
 * test and the journal's, not restated: the write-open of a file the
 * session wrote asks them on one lock-free load, with no facts built. A
 * stamp landing in the middle leaves the load unwritten, and the long way
 * (rg_entry_load) looks again. */
static inline bool rg_entry_own_settled(const struct rg_table *t, const struct rg_entry *e,
                                        const struct rg_stamp *now)
{
    /* Unhashed: where only the bytes can tell, the long way takes them. */
    struct rg_file f = {.mtime_ns = now->mtime_ns, .ctime_ns = now->ctime_ns, .size = now->size};
    bool calm;
    struct rg_record r = rg_entry_load_once(t, e, &calm);
    enum rg_stamp_match m;
    return rg_record_own_as(&r, f.mtime_ns, f.ctime_ns, f.size) && rg_record_vouches(&f, &r, &m);
}

/* The decision: may this write happen? */
static inline struct rg_decision rg_decide(const struct rg_request *req, const struct rg_file *file,
                                           const struct rg_facts *facts)
{
    struct rg_decision d;
    enum rg_stamp_match m;
    if (rg_decide_head(req, file, facts, &d, &m))
        return d;
    return rg_decide_rest(req, file, facts, m);
}

const char *rg_reason_name(enum rg_reason r);

/* May a second look clear this refusal? A change may be a sibling's write
 * that a fresh look at the file, or the writer's restamp, shows to be the
 * session's own. A scan's record may be of bytes a writer of the session
 * (writers: how many are counted) is about to restamp as its own, which
 * unlocks them for every process of the session; with no writer counted,
 * only the scanner's line may write, and no look changes that. */
static inline bool rg_refusal_may_clear(enum rg_reason why, uint32_t writers)
{
    return why == RG_WHY_CHANGED || (why == RG_WHY_SCANNED && writers > 0);
}

/* How long to pause before look number `look` (from 0) for a writer of the
 * session to restamp; 0: stop waiting. Doubling from RG_RESTAMP_FIRST_NS,
 * so a restamp that is nearly there costs little, then steps of at most
 * RG_RESTAMP_STEP_NS, until RG_RESTAMP_WAIT_NS in all: under heavy load a
 * sibling can be off the CPU for a tenth of a second and more between its
 * act and its restamp. Only a writer killed midway, whose count never comes
 * down, makes a refusal wait it all. */
#define RG_RESTAMP_FIRST_NS 200000LL
#define RG_RESTAMP_STEP_NS 50000000LL
#define RG_RESTAMP_WAIT_NS 1000000000LL
int64_t rg_restamp_pause_ns(int look);

#endif
