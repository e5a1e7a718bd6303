/* Session table files: creating one, attaching to one, removing one. The
 * CLI and the shim share this code, so it only enters the kernel through
 * calls the shim does not hook, or through os/sys.h. */
#ifndef RG_SESSION_H
#define RG_SESSION_H

#include <limits.h>
#include <stddef.h>

#include "core/ignore.h"
#include "core/jrecord.h"
#include "core/table.h"
#include "core/tablebind.h"
#include "os/members.h"
/* Creates a new table file 0600 with O_EXCL|O_NOFOLLOW in $READGUARD_DIR,
 * /dev/shm, $XDG_RUNTIME_DIR or /tmp (the first with room) and formats it,
 * creator its first owner and, for good, the pid in its id. When
 * s->log_path is NULL the default log path is derived from the table name.
 * On failure returns -errno and a sentence in err. The directories it
 * looks in are pruned first (rg_session_prune), out of wait. */
int rg_session_create(const struct rg_settings *s, int32_t creator, char *path, size_t cap,
                      char *err, size_t errcap, struct rg_exec_wait *wait);

/* Removes this user's tables in dir whose session has ended: its owner
 * has exited and no process of its tree is left (os/members.h). A creator
 * that leaves by _exit (dash does) or SIGKILL cannot remove its own, and
 * Claude Code never removes its hook's (core/settings.h): its owner is
 * Claude Code, and no process maps it once that and its tools are gone.
 * Processes seen in the middle of an exec are waited for out of wait, one
 * budget for all the tables. Returns how many were removed (os/prune.c). */
int rg_session_prune(const char *dir, struct rg_exec_wait *wait);

/* The same, at a path the caller chose (readguard run --session). Fails
 * with -EEXIST rather than touch an existing file. */
int rg_session_create_at(const struct rg_settings *s, int32_t creator, const char *path, char *err,
                         size_t errcap);

/* Maps an existing table read-write. NULL on success, else the reason. */
const char *rg_session_attach(const char *path, struct rg_table *t);

void rg_session_detach(struct rg_table *t);

/* What the session's processes fall back on when they find no table at
 * its path (it was removed, say): its roots as READGUARD_ROOTS lists them
 * (rg_table_roots_list), its log, absolute, or "" when it has none or it
 * does not fit, and its id, which names the session in the log's lines.
 * And what keeps them from joining another file put at that path: the
 * table's binding (core/tablebind.h). */
struct rg_fallback {
    char roots[PATH_MAX];
    char log[RG_LOG_PATH_MAX];
    char id[RG_JOURNAL_ID_MAX];
    char bind[RG_TABLEBIND_MAX];
};

/* Fills f from the table at path (os/fallback.c). NULL on success, else
 * why the table is unusable. */
const char *rg_session_fallback(const char *path, struct rg_fallback *f);

/* The default journal directory: $XDG_STATE_HOME/readguard/journal, else
 * ~/.local/state/readguard/journal; "" when neither is known. */
void rg_session_default_journal(char *out, size_t cap);

/* The ignore rules of a new session, in the order that lets later ones win:
 * the built-in defaults (unless s->flags has RG_POLICY_NO_DEFAULT_IGNORES),
 * each root's .readguardignore, then extra (--ignore). 0, or -errno and a
 * sentence in err (os/ignorefile.c). */
int rg_session_ignores(struct rg_ignore_list *l, const struct rg_settings *s,
                       const char *const *extra, size_t nextra, char *err, size_t errcap);

#endif
