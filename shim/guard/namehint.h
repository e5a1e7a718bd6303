/* Telling a file never read from one replaced since it was read
 * (core/namehint.h): reads note the name they came by; a refusal as unread
 * looks its own names up. */
#ifndef RG_GUARD_NAMEHINT_H
#define RG_GUARD_NAMEHINT_H

#include "core/request.h"
#include "guard/ctx.h"
/* Notes that the read recorded in e came by the name path from dirfd. Only
 * a name that means the same to a later call does: absolute, or relative to
 * the working directory; a read by a directory descriptor notes nothing. */
void rg_namehint_note(struct rg_ctx *c, int dirfd, const char *path, const struct rg_entry *e);

/* The reason to give for refusing f, found unread, by req (abs: where the
 * data lives, or ""): RG_WHY_REPLACED, with *was the record of the file
 * read under one of those names, when the evidence says so; else
 * RG_WHY_UNREAD. Costs a few lookups and a statx: refusals only. */
enum rg_reason rg_namehint_reason(struct rg_ctx *c, const struct rg_request *req, const char *abs,
                                  const struct rg_file *f, struct rg_record *was);

#endif
