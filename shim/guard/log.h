/* Telling people: one line on stderr for each refusal, one JSON line in the
 * session log for each refusal or warning. Both are written with plain
 * write(2) on descriptors the shim opens itself, never through a hook. */
#ifndef RG_LOG_H
#define RG_LOG_H

#include "core/policy.h"
#include "core/report.h"
#include "core/request.h"
#include "guard/ctx.h"
void rg_log_decision(struct rg_ctx *c, const struct rg_report *r);

/* Where to tell the process a decision is for, and its name: the actor's
 * (fetched on first use) under the supervisor, else this process's own;
 * -1 when its descriptor 2 is a data file it opened itself. */
int rg_log_err_fd(const struct rg_ctx *c);

/* The process write-opened the file dev:ino itself and got descriptor 2:
 * its stderr was closed, and this is its data. */
void rg_log_stderr_opened(struct rg_ctx *c, uint64_t dev, uint64_t ino);
/* Descriptor 2 is the process's stderr again, whatever file it holds:
 * freopen(path, "w", stderr) redirects stderr by opening onto 2. */
void rg_log_stderr_given(struct rg_ctx *c);
const char *rg_log_actor_prog(const struct rg_ctx *c);

/* A read could not be recorded because the table is full: says so on
 * stderr, once per session (enforce mode only). */
void rg_log_table_full(struct rg_ctx *c);

#endif
