/* The shim's per-process state: one struct, one instance. Everything a hook
 * needs beyond its arguments lives here: the mapped table, the policy read
 * from it, and the descriptors this process holds open for writing. */
#ifndef RG_CONTEXT_H
#define RG_CONTEXT_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy.h"
#include "scan.h"
#include "table.h"

#define RG_MAX_ROOTS 64
#define RG_FDMAP_SIZE 4096

/* A descriptor open for writing on a tracked file, to restamp when it closes.
 * ino is published last: a slot with ino 0 is empty. */
struct rg_fdslot {
    _Atomic uint64_t ino;
    uint32_t dev;
    int32_t opener;  /* the pid that counted it in entry->writers; 0 for copies;
                        RG_OPENER_STANDIN for a read-only stand-in */
    void *stream;    /* the FILE opened on it, to flush before a restamp at exit */
};

/* A read-only descriptor handed out for a write-mode open that may only set
 * times (touch): never a writer, never restamped; ftruncate on it is refused
 * with the reason. */
#define RG_OPENER_STANDIN (-1)

#define RG_DIRCACHE_SLOTS 1024
struct rg_overflow; /* uthash map for descriptors >= RG_FDMAP_SIZE */

/* The process a decision is made for, when that is not the caller: the
 * supervisor decides for the processes it traps. */
struct rg_actor {
    int32_t pid;       /* its thread group id */
    int32_t tid;       /* the thread that made the call */
    int err_fd;        /* a copy of its stderr, or -1 */
    char prog[16];     /* its comm, "" until needed */
};

struct rg_ctx {
    _Atomic int state;
    enum rg_table_state table_state;
    const char *problem;               /* why the table is unusable */
    char problem_buf[320];              /* room for a problem worded at run time */
    struct rg_table table;
    enum rg_mode mode;
    uint32_t policy;                    /* RG_POLICY_* */
    int64_t read_ttl_ns;
    const char *ignores;                /* the ignore rules, in the mapped header */
    size_t ignores_len;
    size_t nroots;
    const char *roots[RG_MAX_ROOTS];
    size_t root_len[RG_MAX_ROOTS];      /* strlen of each, asked on every read */
    char fallback_roots[PATH_MAX];      /* roots when there is no table */
    char session_path[PATH_MAX];
    char env_session[PATH_MAX + 32];    /* READGUARD_SESSION=..., see export_var() */
    char env_owner[48];
    int32_t owner_pid;                  /* set when this process created the session */
    _Atomic int log_warned;
    _Atomic int journal_warned;         /* said once that old bytes were not kept */
    struct rg_fdslot fds[RG_FDMAP_SIZE];
    _Atomic int fds_used;               /* one past the highest fds[] slot ever used */
    struct rg_overflow *overflow;
    _Atomic int overflow_lock;
    _Atomic uint64_t dircache[RG_DIRCACHE_SLOTS]; /* see dircache.c */
    struct rg_actor *actor;             /* NULL in the shim: the process itself */
    struct rg_scan scan;                /* this process's recent reads (scan.h) */
};

/* Enters the shim from a hook: the ready context, or NULL when the call must
 * pass straight through (a hook re-entered from inside the shim, for example
 * from a signal handler or from dlsym). Pair with rg_leave(). */
struct rg_ctx *rg_enter(void);
void rg_leave(void);
/* Can a descriptor-only hook (close, dup2) skip the shim for fd? Only if
 * nothing is tracked on it and it is not 0-2, whose inherited writes a close
 * restamps. Reads one slot; needs no rg_enter(), so it works before the
 * context exists (nothing is tracked then) and attaches nothing. */
bool rg_fd_idle(int fd);

/* Enters the shim only if this process has already set itself up, never
 * starting a session or attaching a table: the path of an exec, which may
 * run in a vfork child that shares the parent's memory. */
struct rg_ctx *rg_enter_ready(void);

/* The context if this process has set itself up, without entering the
 * critical section (critical.h): only for work that is reentrant as it
 * stands, with no lock and no malloc, so a signal handler may run in the
 * middle of it and a fork may copy it half done. Recording a read is such
 * work (the table is lock-free), and it is the hottest path of all, so it
 * pays no signal-mask calls. */
struct rg_ctx *rg_ready(void);

struct rg_env_need;
/* What an exec from this process must pass on (see envp.h): the shim's
 * LD_PRELOAD entry and the session, as this process started with them.
 * Both are NULL once the session's table is gone: a session that ended is
 * not rejoined. Async-signal-safe; touches no state. */
void rg_exec_need(struct rg_env_need *need);

/* rg_exec_need for one program about to be exec'd (execveat's arguments):
 * the shim its loader can load, or none, and LD_PRELOAD cleared of the one it
 * cannot. A program that runs unguarded is named (unguarded.h), unless the
 * session is supervised. Async-signal-safe, like rg_exec_need. */
void rg_exec_prepare(const char *call, int dirfd, const char *path, int at_flags,
                     struct rg_env_need *need);

/* Adds a root (absolute, canonical) if there is room. */
static inline void rg_ctx_add_root(struct rg_ctx *c, const char *root)
{
    if (c->nroots < RG_MAX_ROOTS) {
        c->root_len[c->nroots] = strlen(root);
        c->roots[c->nroots++] = root;
    }
}

struct rg_facts rg_facts_for(struct rg_ctx *c, const struct rg_entry *e);
/* Takes mode, policy, ignore rules and roots from the attached table. */
void rg_ctx_use_table(struct rg_ctx *c);
/* The process writes are counted for: the actor, else this process. */
int32_t rg_ctx_pid(const struct rg_ctx *c);

void rg_fd_track(struct rg_ctx *c, int fd, uint64_t dev, uint64_t ino, int32_t opener,
                 void *stream);
bool rg_fd_take(struct rg_ctx *c, int fd, struct rg_fdslot *out);
bool rg_fd_peek(struct rg_ctx *c, int fd, struct rg_fdslot *out);
void rg_fd_set_stream(struct rg_ctx *c, int fd, void *stream);
/* One past the highest descriptor below RG_FDMAP_SIZE ever tracked: scans
 * stop there, so a process that tracked nothing touches none of the map
 * (exec scans it in every forked child, and its pages are not shared). */
int rg_fd_slots_used(struct rg_ctx *c);
/* Calls fn on each tracked descriptor in [from, to], taking it out of the map. */
void rg_fd_take_each(struct rg_ctx *c, int from, int to,
                     void (*fn)(struct rg_ctx *, int, struct rg_fdslot *));

/* Converts a kernel-style result into the libc convention, restoring the
 * caller's errno on success. */
static inline long rg_result(long r, int saved_errno);

#include <errno.h>
static inline long rg_result(long r, int saved_errno)
{
    if (r < 0 && r > -4096) {
        errno = (int)-r;
        return -1;
    }
    errno = saved_errno;
    return r;
}

#endif
