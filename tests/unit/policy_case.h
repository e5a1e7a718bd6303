/* One rg_decide case as a flat struct, the shorthands the tables of cases
 * are written in, and the check of a table of them (core/policy.c). */
#ifndef RG_TEST_POLICY_CASE_H
#define RG_TEST_POLICY_CASE_H

#include <fcntl.h>

#include "check.h"
#include "core/content.h"
#include "core/policy.h"

#define MTIME 1700000000000000000
#define CTIME 1700000100000000000
#define SIZE 4096

/* One case, flat: every field left out is zero, which reads as "the usual":
 * an existing regular file, a record (if found) that matches it exactly, no
 * writers, a working table, enforce mode. */
struct policy_case {
    const char *name;
    enum rg_op op;
    int flags;
    bool missing, special; /* the file does not exist / is not regular */
    bool unnamed;          /* open, but with no link left */
    enum rg_scope scope;
    enum rg_scope new_scope; /* RG_OP_LINK: where the new name is */
    bool found;              /* recorded in the current generation */
    int64_t mtime_off;       /* recorded mtime minus the file's */
    int64_t ctime_off;       /* recorded ctime minus the file's */
    int64_t size_off;        /* recorded size minus the file's */
    uint32_t writers;
    bool writer_alive;
    enum rg_table_state table;
    enum rg_mode mode;
    uint32_t policy;         /* RG_POLICY_* knobs */
    int64_t ttl;             /* --read-ttl, ns; 0 = off */
    int64_t read_age;        /* how long ago the record was made, ns */
    int64_t read_after;      /* the read came this long after the mtime; 0: at time 1 */
    uint32_t rec_hash;       /* hash of the recorded bytes; 0: none */
    bool hashed;             /* the file's bytes were hashed for this decision */
    uint32_t file_hash;      /* ... and gave this (0: unreadable) */
    bool big;                /* larger than RG_HASH_MAX */
    bool scanned;            /* the record's read was a scan (by pid 777) */
    enum rg_lineage lineage; /* of the writer to that scanner */
    bool sealed;             /* the session's own table, under --strict */
    bool own_table;          /* the session's own table, to a preloaded process */
    enum rg_unkept unkept;   /* the journal tried to keep the bytes, and could not */
    enum rg_action want;
    enum rg_reason why;
};

#define GUARDED .scope = RG_SCOPE_GUARDED
#define FREE .scope = RG_SCOPE_FREE
#define JOURNALED .scope = RG_SCOPE_JOURNALED
#define UNKNOWN .scope = RG_SCOPE_UNKNOWN
#define WARN_MODE .mode = RG_MODE_WARN
#define OPEN(fl) .op = RG_OP_OPEN, .flags = (fl)
#define ALLOW .want = RG_ALLOW, .why = RG_WHY_OK
#define ALLOW_KEPT .want = RG_ALLOW_KEPT, .why = RG_WHY_OK
#define NEED_SCOPE .want = RG_NEED_SCOPE, .why = RG_WHY_OK
#define REFUSE(r) .want = RG_REFUSE, .why = RG_WHY_##r
#define WARN(r) .want = RG_WARN, .why = RG_WHY_##r
#define UNTRACKED(r) .want = RG_ALLOW_UNTRACKED, .why = RG_WHY_##r
#define READ_ONLY(r) .want = RG_READ_ONLY, .why = RG_WHY_##r
#define APPEND_KNOB .policy = RG_POLICY_ALLOW_APPEND
#define UNLINK_KNOB .policy = RG_POLICY_GUARD_UNLINK
#define UNLINK .op = RG_OP_UNLINK, .flags = O_WRONLY
#define LINK .op = RG_OP_LINK
#define TO_GUARDED .new_scope = RG_SCOPE_GUARDED
#define TO_FREE .new_scope = RG_SCOPE_FREE
#define NEED_NEW_SCOPE .want = RG_NEED_NEW_SCOPE, .why = RG_WHY_OK
#define SEC 1000000000LL
#define NEED_HASH .want = RG_NEED_HASH, .why = RG_WHY_OK
#define RACY .read_after = 1000000 /* 1 ms: within a tick */
#define CALM .read_after = 10 * SEC
#define NEED_LINEAGE .want = RG_NEED_LINEAGE, .why = RG_WHY_OK
#define SCANNED .found = true, .scanned = true
#define TOUCH_FLAGS (O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY)

static const struct policy_case *current;

static inline const char *action_name(enum rg_action a)
{
    switch (a) {
    case RG_ALLOW: return "ALLOW";
    case RG_NEED_SCOPE: return "NEED_SCOPE";
    case RG_WARN: return "WARN";
    case RG_REFUSE: return "REFUSE";
    case RG_ALLOW_UNTRACKED: return "ALLOW_UNTRACKED";
    case RG_READ_ONLY: return "READ_ONLY";
    case RG_NEED_HASH: return "NEED_HASH";
    case RG_NEED_LINEAGE: return "NEED_LINEAGE";
    case RG_NEED_NEW_SCOPE: return "NEED_NEW_SCOPE";
    case RG_ALLOW_KEPT: return "ALLOW_KEPT";
    }
    return "?";
}

static inline void decide_case(void)
{
    const struct policy_case *c = current;
    struct rg_request req = {.op = c->op,
                             .call = "test",
                             .dirfd = AT_FDCWD,
                             .path = "f",
                             .flags = c->flags,
                             .mode = 0644};
    int64_t size = c->big ? RG_HASH_MAX + 1 : SIZE;
    int64_t read_ns = c->read_after ? MTIME + c->read_after : 1;
    struct rg_file file = {.exists = !c->missing,
                           .regular = !c->special,
                           .unnamed = c->unnamed,
                           .dev = 8,
                           .ino = 42,
                           .mtime_ns = MTIME,
                           .ctime_ns = CTIME,
                           .size = size,
                           .scope = c->scope,
                           .new_scope = c->new_scope,
                           .hashed = c->hashed,
                           .hash = c->file_hash,
                           .unkept = c->unkept};
    struct rg_facts facts = {
        .rec = {.found = c->found,
                .mtime_ns = MTIME + c->mtime_off,
                .ctime_ns = CTIME + c->ctime_off,
                .size = size + c->size_off,
                .read_ns = read_ns,
                .writers = c->writers,
                .writer_pid = c->writers ? 4321 : 0,
                .hash = c->rec_hash,
                .reader = c->scanned ? 777 | RG_READER_SCAN : 777},
        .lineage = c->lineage,
        .writer_alive = c->writer_alive,
        .table = c->table,
        .mode = c->mode,
        .policy = c->policy,
        .read_ttl_ns = c->ttl,
        .now_ns = read_ns + c->read_age,
        .sealed = c->sealed,
        .own_table = c->own_table,
    };
    struct rg_decision d = rg_decide(&req, &file, &facts);
    CHECK_EQ_STR(action_name(d.action), action_name(c->want));
    CHECK_EQ_STR(rg_reason_name(d.reason), rg_reason_name(c->why));
}

static inline void check_cases(const struct policy_case *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        current = &table[i];
        check_run(decide_case, table[i].name);
    }
}

#endif
