/* The decision: may this write happen? A pure function of the request, the
 * file as it is now and what the session recorded about it. It does no I/O,
 * so every case is unit-tested without preloading anything. */
#ifndef RG_POLICY_H
#define RG_POLICY_H

#include <stdbool.h>
#include <stdint.h>

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

/* Was the record's read a scan by a process other than the writer's line?
 * Only the lineage fact tells; rg_decide asks for it. */
bool rg_record_scanned(const struct rg_record *r);

struct rg_decision rg_decide(const struct rg_request *req, const struct rg_file *file,
                             const struct rg_facts *facts);

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
 * session to restamp; 0: stop waiting. Doubling from 0.2 ms, so a restamp
 * that is nearly there costs little, then steps of at most
 * RG_RESTAMP_STEP_NS, until RG_RESTAMP_WAIT_NS in all: under heavy load a
 * sibling can be off the CPU for a tenth of a second and more between its
 * act and its restamp. Only a writer killed midway, whose count never comes
 * down, makes a refusal wait it all. */
#define RG_RESTAMP_STEP_NS 50000000LL
#define RG_RESTAMP_WAIT_NS 1000000000LL
int64_t rg_restamp_pause_ns(int look);

/* Is f what the session recorded in r? RG_STAMP_ASK_BYTES: mtime, ctime or the
 * tick cannot tell, and r holds a hash that can; ask again with f hashed. */
enum rg_stamp_match { RG_STAMP_MATCHES, RG_STAMP_DIFFERS, RG_STAMP_ASK_BYTES };
enum rg_stamp_match rg_record_match(const struct rg_file *f, const struct rg_record *r);

#endif
