/* Telling people: one line on stderr for each refusal, one JSON line in the
 * session log for each refusal or warning. Both are written with plain
 * write(2) on descriptors the shim opens itself, never through a hook. */
#ifndef RG_LOG_H
#define RG_LOG_H

#include "context.h"
#include "policy.h"
#include "request.h"

struct rg_report {
    const struct rg_request *req;
    const char *shown_path;   /* as the program gave it */
    const char *abs_path;     /* where the data lives */
    const struct rg_file *file;
    const struct rg_facts *facts;
    struct rg_decision decision;
};

void rg_log_decision(struct rg_ctx *c, const struct rg_report *r);

/* The reason sentence, as printed after "refused to write 'PATH': ". Shared
 * with `readguard check`. Returns the length written. */
size_t rg_reason_text(char *buf, size_t cap, const struct rg_report *r, const struct rg_ctx *c);

#endif
