/* Asking the policy about a write: the facts of the file, the table entry
 * and, only for a would-be refusal, the scope; then reporting the answer.
 * Shared by the guarded operations in guard.c. */
#ifndef RG_JUDGE_H
#define RG_JUDGE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "guard/ctx.h"
#include "core/policy.h"
#include "core/request.h"

struct rg_stamp rg_stamp_of(const struct stat *st);
struct rg_file rg_file_of(const struct stat *st);
struct rg_entry *rg_entry_for(struct rg_ctx *c, const struct rg_file *f, bool add);

/* f: the target now; fd: a descriptor on it, or -1 to look the path up.
 * Logs a refusal or warning; returns the action to carry out. */
enum rg_action rg_judge(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f,
                        int fd, bool follow);

/* Judges a path that is not open: a missing path is a new file. 0 or
 * -EACCES; *exists (if given) says whether the path was there. */
int rg_judge_path(struct rg_ctx *c, const struct rg_request *req, bool follow, bool *exists);

#endif
