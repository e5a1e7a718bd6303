/* Session table files: creating one, attaching to one, removing one. The
 * CLI and the shim share this code, so it only enters the kernel through
 * calls the shim does not hook, or through sys.h. */
#ifndef RG_SESSION_H
#define RG_SESSION_H

#include <stddef.h>

#include "ignore.h"
#include "table.h"

#define RG_ENV_SESSION "READGUARD_SESSION"
#define RG_ENV_ROOTS "READGUARD_ROOTS"
#define RG_ENV_MODE "READGUARD_MODE"
#define RG_ENV_LOG "READGUARD_LOG"
#define RG_ENV_DIR "READGUARD_DIR"
#define RG_ENV_CAPACITY "READGUARD_CAPACITY"
#define RG_ENV_OWNER "READGUARD_OWNER"
#define RG_ENV_JOURNAL_MAX_FILE "READGUARD_JOURNAL_MAX_FILE"
#define RG_ENV_JOURNAL_MAX "READGUARD_JOURNAL_MAX"
#define RG_ENV_JOURNAL_DAYS "READGUARD_JOURNAL_DAYS"

/* Creates a new table file 0600 with O_EXCL|O_NOFOLLOW in $READGUARD_DIR,
 * /dev/shm, $XDG_RUNTIME_DIR or /tmp (the first with room) and formats it.
 * When s->log_path is NULL the default log path is derived from the table
 * name. On failure returns -errno and a sentence in err. */
int rg_session_create(const struct rg_settings *s, char *path, size_t cap, char *err,
                      size_t errcap);

/* Removes this user's tables in dir whose creator has exited: a creator that
 * leaves by _exit (dash does) or SIGKILL cannot remove its own. Returns how
 * many were removed. */
int rg_session_prune(const char *dir);

/* The same, at a path the caller chose (readguard run --session). Fails
 * with -EEXIST rather than touch an existing file. */
int rg_session_create_at(const struct rg_settings *s, const char *path, char *err,
                         size_t errcap);

/* Maps an existing table read-write. NULL on success, else the reason. */
const char *rg_session_attach(const char *path, struct rg_table *t);

void rg_session_detach(struct rg_table *t);

/* The default log of a session whose table is at table_path. */
void rg_session_default_log(const char *table_path, char *out, size_t cap);

/* The default journal directory: $XDG_STATE_HOME/readguard/journal, else
 * ~/.local/state/readguard/journal; "" when neither is known. */
void rg_session_default_journal(char *out, size_t cap);

/* Parses a size in bytes with an optional K, M or G suffix (powers of 1024);
 * -1 when invalid. */
int64_t rg_size_parse(const char *s);

/* Parses a mode name; returns -1 for anything else. */
int rg_mode_parse(const char *s);
const char *rg_mode_name(enum rg_mode m);

/* Parses a capacity ("100000", "1M"); 0 when invalid or out of range. */
uint32_t rg_capacity_parse(const char *s);

int64_t rg_now_ns(void);

/* The ignore rules of a new session, in the order that lets later ones win:
 * the built-in defaults (unless s->flags has RG_POLICY_NO_DEFAULT_IGNORES),
 * each root's .readguardignore, then extra (--ignore). 0, or -errno and a
 * sentence in err. */
int rg_session_ignores(struct rg_ignore_list *l, const struct rg_settings *s,
                       const char *const *extra, size_t nextra, char *err, size_t errcap);

#endif
