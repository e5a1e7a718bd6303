/* Asking the pure policy (core/policy.h) about a write: gathering the
 * facts of the file, the table entry and, only for a would-be refusal, the
 * scope and the bytes; then reporting the answer. Shared by the guarded
 * calls (guard/calls.h) and the supervisor. */
#ifndef RG_ASK_H
#define RG_ASK_H

#include <stdbool.h>
#include <sys/stat.h>

#include "core/policy.h"
#include "core/request.h"
#include "guard/ctx.h"
#include "os/clock.h"
/* What fstat says, in the table's and the policy's terms. Inline: every
 * recorded read converts one, and a caller uses only some of the fields. */
static inline struct rg_stamp rg_stamp_of(const struct stat *st)
{
    return (struct rg_stamp){
        .mtime_ns = rg_timespec_ns(&st->st_mtim),
        .ctime_ns = rg_timespec_ns(&st->st_ctim),
        .size = st->st_size,
    };
}

static inline struct rg_file rg_file_of(const struct stat *st)
{
    return (struct rg_file){
        .exists = true,
        .regular = S_ISREG(st->st_mode),
        .unnamed = st->st_nlink == 0,
        .dev = st->st_dev,
        .ino = st->st_ino,
        .mtime_ns = rg_timespec_ns(&st->st_mtim),
        .ctime_ns = rg_timespec_ns(&st->st_ctim),
        .size = st->st_size,
        .scope = RG_SCOPE_UNKNOWN,
    };
}

/* f's table entry, added if add and there is room; NULL without a table. */
static inline struct rg_entry *rg_entry_for(struct rg_ctx *c, const struct rg_file *f, bool add)
{
    if (c->table_state == RG_TABLE_BROKEN)
        return NULL;
    return add ? rg_table_find_or_add(&c->table, f->dev, f->ino)
               : rg_table_find(&c->table, f->dev, f->ino);
}

/* The entry hint names (its number + 1; 0: none) if it still holds dev
 * and ino, else NULL: probe the index. Inline, a few loads. An entry's key
 * never changes once the index publishes it (a reset only moves the
 * generation on), and only a published entry is ever hinted, so a hint
 * that points inside the table at the same key is the entry a probe would
 * find; threads may overwrite each other's hints, which costs only a
 * probe. */
static inline struct rg_entry *rg_entry_hinted(const struct rg_ctx *c, _Atomic uint32_t *hint,
                                               uint64_t dev, uint64_t ino)
{
    uint32_t h = atomic_load_explicit(hint, memory_order_acquire);
    if (h - 1 < c->table.capacity) {
        struct rg_entry *e = &c->table.entries[h - 1];
        if (e->ino == ino && e->dev == dev)
            return e;
    }
    return NULL;
}

/* Points hint at e, an entry the index published. */
static inline void rg_entry_hint(const struct rg_ctx *c, _Atomic uint32_t *hint,
                                 const struct rg_entry *e)
{
    atomic_store_explicit(hint, (uint32_t)(e - c->table.entries) + 1, memory_order_release);
}

/* The same for the write paths, by dev and ino. An allowed write asks for
 * one file's entry four times (the judgement, the journal's "already
 * kept?", the writer count, the restamp at close): the last entry found is
 * tried first (c->write_hint), so one probe of the index serves them all. */
struct rg_entry *rg_entry_probe_write(struct rg_ctx *c, uint64_t dev, uint64_t ino, bool add);
static inline struct rg_entry *rg_entry_of_write(struct rg_ctx *c, uint64_t dev, uint64_t ino,
                                                 bool add)
{
    if (c->table_state == RG_TABLE_BROKEN)
        return NULL;
    struct rg_entry *e = rg_entry_hinted(c, &c->write_hint, dev, ino);
    return e ? e : rg_entry_probe_write(c, dev, ino, add);
}

/* A record that does not match its file while the session counts a writer
 * of it, or an act on it (core/table.h), may be about to be restamped. Waits
 * a moment before look number `look` again (rg_restamp_pause_ns: up to a
 * second in all); false when there is nothing to wait for, or no time left. */
bool rg_wait_restamp(const struct rg_record *r, int look);

/* Hashes f's bytes into f->hash (f->hashed set), through a descriptor that
 * can read them: fd may be write-only or O_PATH, or -1 to open req's path (rename,
 * truncate). Only the inode f names counts; anything unreadable leaves hash
 * 0, which matches no record. */
void rg_take_hash(const struct rg_request *req, struct rg_file *f, int fd, bool follow);

/* The facts of f, whose entry is e (or NULL), as they stand: lock-free
 * loads, nothing looked up that the policy may ask for. */
static inline __attribute__((always_inline)) void rg_ask_facts(struct rg_ctx *c,
                                                               const struct rg_file *f, int fd,
                                                               struct rg_entry *e,
                                                               struct rg_facts *facts)
{
    rg_facts_load(c, e, facts, fd);
    facts->sealed = rg_ctx_sealed(c, f->dev, f->ino) || f->in_journal;
    facts->own_table = rg_ctx_own_table(c, f->dev, f->ino);
}

/* Does the policy allow f's write at its first look, as rg_ask would
 * answer at once? Reentrant (lock-free loads, the pure policy's head; it
 * logs nothing), for a hook outside the critical section. False: ask
 * rg_ask, which decides in full. *facts: what the look found, for the
 * journal's question; e: f's entry (rg_entry_of_write, not added), which
 * the caller then counts its writer on without finding it again. Inline,
 * as rg_decide_head is: f and *facts then stay in registers. */
static inline __attribute__((always_inline)) bool
rg_ask_allows_at_once(struct rg_ctx *c, const struct rg_request *req, const struct rg_file *f,
                      int fd, struct rg_entry *e, struct rg_facts *facts)
{
    struct rg_decision d;
    enum rg_stamp_match m;
    rg_ask_facts(c, f, fd, e, facts);
    return rg_decide_head(req, f, facts, &d, &m) && d.action == RG_ALLOW;
}

/* f: the target now; fd: a descriptor on it, or -1 to look the path up.
 * Logs a refusal or warning; returns the action to carry out. */
enum rg_action rg_ask(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f, int fd,
                      bool follow);

/* rg_ask for a call the first look decides whole (the session's own files
 * under --strict: the policy refuses them at its head), reported with abs
 * as the path the call named: nothing there located the file. */
enum rg_action rg_ask_named(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f,
                            const char *abs);

/* Refuses, with its reason, any call on the table's own file under
 * --strict (see rg_ctx_sealed), whatever the call is: a read-open, or the
 * source of a rename, which the policy otherwise lets through. -EACCES or 0. */
int rg_ask_sealed(struct rg_ctx *c, const struct rg_request *req, const struct stat *st);

/* Asks about a path that is not open: a missing path is a new file. One
 * of three answers, what a change that opens nothing can act on:
 * RG_REFUSE, RG_ALLOW_KEPT (allowed only once the old bytes are kept: the
 * act to hand rg_journal_keep), or RG_ALLOW (every other allow, warn mode's
 * too). What the path names is left in *st (st_mode 0: nothing). */
enum rg_action rg_ask_path_stat(struct rg_ctx *c, const struct rg_request *req, bool follow,
                                struct stat *st);
/* The same, of the file itself (not a final symlink's target) that st
 * describes, looked at already. */
enum rg_action rg_ask_stat(struct rg_ctx *c, const struct rg_request *req, const struct stat *st);
/* The same, with the target's tier already known to be scope (the backup
 * rule: guard/calls.c), or RG_SCOPE_UNKNOWN to work it out if needed. */
enum rg_action rg_ask_path_in(struct rg_ctx *c, const struct rg_request *req, bool follow,
                              struct stat *st, enum rg_scope scope);
/* rg_ask_path_stat's answer itself (RG_ALLOW for nothing there). */
enum rg_action rg_ask_path_act(struct rg_ctx *c, const struct rg_request *req, bool follow,
                               struct stat *st, enum rg_scope scope);

#endif
