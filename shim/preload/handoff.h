/* The exec hand-off: what a new image must be given to stay in the session
 * (core/envp.h), from what this process started with. Captured before
 * main() with no libc call at all, because every process pays for it; read
 * by the exec hooks, which may run in a vfork child and so write nothing but
 * their own stack. */
#ifndef RG_HANDOFF_H
#define RG_HANDOFF_H

#include <limits.h>

#include "core/envp.h"
#include "core/tablebind.h"
/* The entries an exec re-injects when the program scrubbed its environment:
 * this build's LD_PRELOAD entry, as written; the other libc's build, when
 * LD_PRELOAD names it; READGUARD_SESSION. Each is at most PATH_MAX - 1
 * bytes, packed one after the other in buf (in that order, the session last
 * so that a session created later can take its place), not three PATH_MAX
 * arrays: every process writes them before main(), and each page written is
 * a page fault. Read through the functions below. */
struct rg_exec_env {
    unsigned short other_at, session_at; /* offsets into buf; the own entry at 0 */
    bool session_made;                   /* set by rg_xenv_set_session */
    char binding[RG_TABLEBIND_MAX];      /* the session's, or "" */
    char buf[3 * PATH_MAX];
};

static inline const char *rg_xenv_preload(const struct rg_exec_env *x) { return x->buf; }
static inline const char *rg_xenv_other(const struct rg_exec_env *x)
{
    return x->buf + x->other_at;
}
static inline const char *rg_xenv_session(const struct rg_exec_env *x)
{
    return x->buf + x->session_at;
}

/* Replaces the session entry and its binding (a session this process
 * created). */
void rg_xenv_set_session(struct rg_exec_env *x, const char *session, const char *binding);

/* Fills x from the process's starting environment: the LD_PRELOAD entries
 * naming the shim ($LIB and all, so a 32-bit child still finds its own
 * build), else the file the shim was loaded from, and the session, unless
 * a hook that ran before (from another library's constructor) made one, and
 * the session's binding. */
void rg_exec_env_capture(struct rg_exec_env *x, const struct rg_env_vars *v);

/* What an exec from this process must pass on (see core/envp.h): the shim's
 * LD_PRELOAD entry, the session and its binding, as the process started with
 * them (x, the context's: rg_ctx_exec_env()). All are NULL once the session's table
 * is gone: a session that ended is not rejoined. Async-signal-safe; touches
 * no state. */
void rg_exec_need(const struct rg_exec_env *x, struct rg_env_need *need);

struct rg_ctx;
struct rg_target;

/* Does envp already carry all that an exec of t needs, were the session's
 * table still there (need as rg_exec_need and rg_exec_choose would leave it
 * then)? Then it goes on as it is whether or not the table is there, and
 * nothing is named unguarded; false asks them. No system call. */
bool rg_exec_settled(const struct rg_exec_env *x, const struct rg_target *t, char *const *envp,
                     struct rg_env_need *need);

/* rg_exec_need and rg_exec_choose for an exec with envp: need as they
 * leave it, and whether envp already carries it (rg_envp_complete), asking
 * whether the session's table is still there only when that could change
 * what the exec does. */
bool rg_exec_settle(const struct rg_exec_env *x, const struct rg_ctx *c, const char *call,
                    const char *path, const struct rg_target *t, char *const *envp,
                    struct rg_env_need *need, char *other_buf);

/* Is t a program of the other libc, whose shim rg_exec_choose names? */
bool rg_exec_foreign(const struct rg_target *t);

/* For need as rg_exec_need left it and one program about to be exec'd, t
 * (os/exec_target.h, looked at with execveat's arguments; path as given,
 * for a notice): the shim its loader can load, or none, and LD_PRELOAD
 * cleared of the one it cannot. A program that runs unguarded is named
 * (unguarded.h) in the table of c (the ready context, or NULL), unless the
 * session is supervised. Async-signal-safe, like rg_exec_need. A PATH
 * search asks rg_exec_need once and this for each name it tries.
 * other_buf (PATH_MAX bytes) holds the other libc's shim entry, built only
 * for a program of that libc (rg_exec_foreign): need->preload may point into
 * it, so it must outlive need. NULL when rg_exec_foreign(t) is false, so
 * that the common exec takes no such buffer from a forked child's stack. */
void rg_exec_choose(const struct rg_exec_env *x, const struct rg_ctx *c, const char *call,
                    const char *path, const struct rg_target *t, struct rg_env_need *need,
                    char *other_buf);

#endif
