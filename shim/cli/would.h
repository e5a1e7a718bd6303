/* What the shim would decide, asked from outside a process: `readguard
 * check` and the Claude Code hooks put a write-mode open of a path to the
 * same rg_decide() the shim asks, with the same facts. */
#ifndef RG_WOULD_H
#define RG_WOULD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/policy.h"
#include "core/request.h"
#include "core/table.h"
struct rg_would {
    struct rg_request req;
    struct rg_file file;
    struct rg_facts facts;
    struct rg_decision decision;
    bool own_write;       /* the record is a restamp after the session's own write */
    bool outside_roots;   /* free because no root holds it, not by a rule */
    struct rg_record was; /* RG_WHY_REPLACED: the file read under its name */
};

/* Decides an overwrite of path (open O_WRONLY|O_TRUNC) in the session of t,
 * on behalf of call (the name logged and shown, e.g. "check", "Write").
 * A write allowed only once its old bytes are kept (RG_ALLOW_KEPT) is
 * decided again where the journal could not keep them.
 * False, after reporting on stderr, when path cannot be examined. */
bool rg_would_write(const struct rg_table *t, const char *path, const char *call,
                    struct rg_would *w);

/* The journal could not keep the old bytes that w's decision
 * (RG_ALLOW_KEPT) needed kept: decides again knowing why. */
void rg_would_unkept(struct rg_would *w, enum rg_unkept why, int err);

/* The tier of path in the session of t, worked out as the shim works it
 * out (roots, ignore rules, git's rules); where it cannot tell, guarded. */
enum rg_scope rg_would_scope(const struct rg_table *t, const char *path);

/* Does a root of the session hold path (symbolic links resolved)? True
 * when it cannot tell. */
bool rg_would_under_a_root(const struct rg_header *h, const char *path);

/* The reason sentence of a refusal or warning, as the shim words it. */
void rg_would_reason(const struct rg_table *t, const char *path, const struct rg_would *w,
                     char *out, size_t cap);

/* Why an allowed write is allowed, in words. */
const char *rg_would_allowed_why(const struct rg_would *w);

/* Logs a refusal or warning in the session log, as the shim does, and
 * counts it in the table's header. */
void rg_would_log(const struct rg_table *t, const char *path, const char *prog,
                  const struct rg_would *w);

#endif
