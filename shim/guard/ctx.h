/* The context the guard works on: everything a guarded call needs beyond
 * its arguments. The mapped table and the policy read from it, the roots,
 * the descriptors open for writing on tracked files, and whom a decision is
 * for. The preload keeps one per process (preload/context.h); the
 * supervisor one per handler thread. */
#ifndef RG_CTX_H
#define RG_CTX_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/policy.h"
#include "core/table.h"
#include "guard/journal/paths.h"
#include "guard/scan.h"
#include "guard/spawndir.h"
#include "guard/tier/tiercache.h"
#include "os/clock.h"
#include "os/procfd.h"
#include "os/sys.h"
#define RG_MAX_ROOTS 64
#define RG_FDMAP_SIZE 4096
_Static_assert(RG_TIERCACHE_ROOTS == RG_MAX_ROOTS, "a cached tier for every root");

/* A descriptor open for writing on a tracked file, to restamp when it closes.
 * ino is published last: a slot with ino 0 is empty. */
struct rg_fdslot {
    _Atomic uint64_t ino;
    uint32_t dev;
    int32_t opener; /* the pid that counted it in entry->writers; 0 for copies;
                       RG_OPENER_STANDIN for a read-only stand-in */
    void *stream;   /* the FILE opened on it, to flush before a restamp at exit */
};

/* A read-only descriptor handed out for a write-mode open that may only set
 * times (touch): never a writer, never restamped; ftruncate on it is refused
 * with the reason. */
#define RG_OPENER_STANDIN (-1)
/* A descriptor --allow-append let through unread: never a writer, never
 * restamped; its let-go moves the append stamp on (core/table.h). */
#define RG_OPENER_APPEND (-2)

#define RG_DIRCACHE_SLOTS 1024
#define RG_READ_HINTS 1024
struct rg_overflow; /* guard/fdmap.c: descriptors >= RG_FDMAP_SIZE */
struct rg_gitcache; /* guard/tier/gitrules.c: git's ignore files, as read */

/* The process a decision is made for, when that is not the caller: the
 * supervisor decides for the processes it traps. */
struct rg_actor {
    int32_t pid;   /* its thread group id */
    int32_t tid;   /* the thread that made the call */
    int err_fd;    /* a copy of its stderr, or -1 */
    char prog[16]; /* its comm, "" until needed */
};

struct rg_ctx {
    /* First, and together: all a fork writes in the context (the lock around
     * it and the scan state's header, which the child resets) and all an
     * exec reads of it. A shell's forked child pays a page fault for each
     * page of its parent's it writes, and for each it reads that the parent
     * never touched; the parent pays one for each it writes at its next
     * fork. */
    _Atomic int overflow_lock;
    _Atomic int spawn_dirs_lock; /* of spawn_dirs (below), held over a fork as this one is */
    _Atomic int fds_used;        /* one past the highest fds[] slot ever used */
    /* The process whose memory this is (0: not known yet, as in a forked
     * child): a vfork child runs in its parent's, fds[] included, and must
     * not take the slots of descriptors it closes only in its own table. */
    _Atomic int32_t map_pid;
    struct rg_scan scan; /* this process's recent reads (guard/scan.h) */
    enum rg_table_state table_state;
    const char *problem; /* why the table is unusable */
    struct rg_table table;
    enum rg_mode mode;
    uint32_t policy; /* RG_POLICY_* */
    int64_t read_ttl_ns;
    const char *ignores; /* the ignore rules, in the mapped header */
    size_t ignores_len;
    size_t nroots;
    /* Whether tiers and jpaths may hold another table's answers: a fresh
     * process's are empty, and left untouched (below). */
    bool caches_used;
    /* Was the last absolute read outside every root? Then the next asks
     * its directory's cached answer first, else the roots (a hint: both
     * ways give the same answer; guard/dircache.c). Written only when it
     * changes. */
    _Atomic bool outside_last;
    struct rg_overflow *overflow; /* read at every exit (rg_fd_take_each) */
    struct rg_gitcache *git;      /* NULL until a write asks git (gitrules.h) */
    _Atomic int git_lock;
    struct rg_actor *actor;          /* NULL in the shim: the process itself */
    uint64_t sealed_dev, sealed_ino; /* the table's own file, which no call of a --strict tree
                                        may touch; 0: none (the shim, --supervise) */
    bool log_sealed; /* and the log, by its path (supervise/jseal.c): a regular file or none */
    bool table_kept_whole; /* the shim's hooks never write or truncate the table's own file
                              (table.dev, table.ino); false in the supervisor, whose tree's
                              libraries open it to attach it */
    const char *roots[RG_MAX_ROOTS];
    /* strlen of each, and where its last '/' is: asked on every read
     * (guard/dircache.c). 32 bits each, so both fit where one size_t did,
     * and the context's pages stay as they were. */
    uint32_t root_len[RG_MAX_ROOTS], root_dir_len[RG_MAX_ROOTS];
    char session_path[PATH_MAX];
    /* Where a process without a usable table logs (its header names the
     * session's log): the log its session's launcher passed on
     * (preload/attach.c), or NULL. */
    const char *lost_log;
    const char *lost_id; /* and that session's id, or NULL */
    _Atomic int log_warned;
    /* The file this process itself write-opened onto descriptor 2 (ino 0:
     * none), as an open does while stderr is closed: that file is data, no
     * place for the shim's lines (guard/log.c). */
    _Atomic uint64_t err_data_ino;
    uint64_t err_data_dev;
    _Atomic int journal_warned; /* said once that old bytes were not kept */
    /* The file last kept for an append --allow-append let through
     * (wopen.c), so that a process appending again does not copy it again,
     * and that process: a forked child inherits the memory, not the
     * appends (an outside change since would pass unkept). append_look:
     * the file's mtime, ctime and size as that process last left it (at
     * its open, and at the let-go of a descriptor it appended through),
     * in one word: another program's change since is kept again. */
    _Atomic uint64_t append_dev, append_ino, append_look;
    _Atomic int32_t append_pid;
    /* Entry number + 1 of the file the last write was judged, counted or
     * restamped on (rg_entry_of_write); 0: none. */
    _Atomic uint32_t write_hint;
    /* The same for reads, one per inode number modulo RG_READ_HINTS: the
     * files a process reads again (headers, modules, a test's fixtures)
     * are found without probing the shared index (calls.c, entry_of_read). 1024,
     * not 256: inode numbers on a disk file system are scattered, and 64
     * files read in turn shared 256 hints often enough to probe the index
     * on about one read in three (rgbench's read row, by the inodes its
     * directory got: 450 or 479 instructions a read). */
    _Atomic uint32_t read_hints[RG_READ_HINTS];
    struct rg_fdslot fds[RG_FDMAP_SIZE];
    /* Last, the caches of pages a short process never touches: ld.so
     * leaves .bss untouched until written, and each page written costs
     * every process a fault. */
    _Atomic uint64_t dircache[RG_DIRCACHE_SLOTS]; /* see guard/dircache.c */
    struct rg_tiercache tiers; /* the last directory's tier (guard/tier/tiercache.h) */
    struct rg_jpaths
        jpaths; /* the journal's paths, once a version is kept (guard/journal/paths.h) */
    struct rg_spawn_dirs spawn_dirs; /* where spawned children's queued opens run */
};

/* Is dev/ino the file of c's table, sealed from the tree (--strict)? */
static inline bool rg_ctx_sealed(const struct rg_ctx *c, uint64_t dev, uint64_t ino)
{
    return c->sealed_ino && ino == c->sealed_ino && dev == c->sealed_dev;
}

/* Is dev/ino the file of c's table, which a hooked call may not change? */
static inline bool rg_ctx_own_table(const struct rg_ctx *c, uint64_t dev, uint64_t ino)
{
    return c->table_kept_whole && ino == c->table.ino && dev == c->table.dev;
}

/* Adds a root (absolute, canonical) if there is room. */
static inline void rg_ctx_add_root(struct rg_ctx *c, const char *root)
{
    if (c->nroots < RG_MAX_ROOTS) {
        const char *slash = strrchr(root, '/');
        c->root_len[c->nroots] = (uint32_t)strlen(root);
        c->root_dir_len[c->nroots] = slash ? (uint32_t)(slash - root) : UINT32_MAX;
        c->roots[c->nroots++] = root;
    }
}

/* Takes mode, policy, ignore rules and roots from the attached table. */
void rg_ctx_use_table(struct rg_ctx *c);

/* What a decision about entry e (NULL: none) needs to know besides the
 * file: the policy, the record read once, and whether the session's last
 * writer of the file still holds it. */
struct rg_facts rg_facts_for(struct rg_ctx *c, const struct rg_entry *e);
/* Does writer, the session's last writer of (dev, ino), hold it for
 * writing? fd: the descriptor this process opened to judge (or -1), not
 * counted when the writer named is this process: it would always be. */
static inline bool rg_writer_holds(int32_t writer, uint64_t dev, uint64_t ino, int fd)
{
    return rg_pid_holds(writer, dev, ino, fd >= 0 && writer == (int32_t)rg_sys_getpid() ? fd : -1);
}

/* The same into *f, which a judgement's loop fills in place (no copy of
 * the whole struct per look); fd as rg_writer_holds'. Inline: every judged
 * write loads them. */
static inline __attribute__((always_inline)) void
rg_facts_load(struct rg_ctx *c, const struct rg_entry *e, struct rg_facts *f, int fd)
{
    /* Field by field, not "= (struct rg_facts){...}": that cleared the
     * whole struct, record included, before the record was loaded over it. */
    f->table = c->table_state;
    f->mode = c->mode;
    f->policy = c->policy;
    f->read_ttl_ns = c->read_ttl_ns;
    f->lineage = RG_LINEAGE_UNKNOWN;
    f->writer_alive = false;
    f->sealed = false;
    f->now_ns = f->read_ttl_ns > 0 ? rg_now_ns() : 0;
    f->journal_max_file = 0;
    if (c->table_state == RG_TABLE_BROKEN) {
        f->rec = (struct rg_record){0};
        return;
    }
    f->journal_max_file = c->table.hdr ? c->table.hdr->journal_max_file : 0;
    f->rec = rg_entry_load(&c->table, e);
    if (f->rec.writers > 0)
        f->writer_alive = rg_writer_holds(f->rec.writer_pid, e->dev, e->ino, fd);
    if (!e && atomic_load_explicit(&c->table.hdr->full, memory_order_relaxed) != RG_FULL_NOT)
        f->table = RG_TABLE_FULL;
}

/* The process writes are counted for: the actor, else this process. Asked
 * anew each time, never cached: a vfork child shares its parent's memory. */
static inline int32_t rg_ctx_pid(const struct rg_ctx *c)
{
    return c->actor ? c->actor->pid : (int32_t)rg_sys_getpid();
}

#endif
