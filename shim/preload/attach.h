/* How a process gets its table: it joins the session its environment names,
 * starts one of its own when none is named, or, with no usable table, fails
 * closed over the session's roots. */
#ifndef RG_ATTACH_H
#define RG_ATTACH_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/jrecord.h"
#include "core/tablebind.h"
#include "guard/ctx.h"
#include "os/members.h"
#include "preload/handoff.h"

/* Room that outlives the call: the context points into it (the roots, the
 * problem) and so does environ (the exported variables). */
struct rg_attach_room {
    char fallback_roots[PATH_MAX];     /* roots when there is no table */
    char problem[320];                 /* a problem worded at run time */
    char roots_problem[PATH_MAX + 80]; /* a root of READGUARD_ROOTS that is no directory */
    char env_session[PATH_MAX + 32];   /* READGUARD_SESSION=..., see export_var() */
    char env_owner[48];
    char env_roots[PATH_MAX + 32];
    char env_log[RG_LOG_PATH_MAX + 32];
    char env_id[RG_JOURNAL_ID_MAX + 32];
    char env_file[RG_TABLEBIND_MAX + 32];
    char lost_log[RG_LOG_PATH_MAX];  /* the session's log when there is no table */
    char lost_id[RG_JOURNAL_ID_MAX]; /* and its id */
};

/* Joins the session whose table is at path; false when it failed closed. */
bool rg_attach_joined(struct rg_ctx *c, struct rg_attach_room *room, const char *path);

/* Creates a session with settings from the environment, attaches it and
 * exports it (and what an exec re-injects, xe) so that children join. The
 * pid of this process, its owner, or 0 when it failed closed instead.
 * The prune before the creation waits for members out of wait. */
int32_t rg_attach_new(struct rg_ctx *c, struct rg_attach_room *room, struct rg_exec_env *xe,
                      struct rg_exec_wait *wait);

#endif
