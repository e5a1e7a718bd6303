/* The policy a session carries (knobs, read TTL, ignore rules), as
 * `readguard status` shows it. */
#ifndef RG_POLICY_SHOW_H
#define RG_POLICY_SHOW_H

#include <stdbool.h>
#include <stdio.h>

#include "core/table.h"
void rg_policy_show_human(FILE *f, const struct rg_header *h);
/* Adds "roots": [...] to an open JSON object. */
void rg_roots_show_json(FILE *f, bool *first, const struct rg_header *h);
/* Adds the members to an open JSON object. */
void rg_policy_show_json(FILE *f, bool *first, const struct rg_header *h);

#endif
