/* Pruning the default session logs, by the journal's age policy: every
 * session writes readguard-UID-RANDOM.log (the Claude Code hook's,
 * readguard-claude-ID.log) in the state directory, and nothing else ever
 * removes it. */
#ifndef RG_LOGPRUNE_H
#define RG_LOGPRUNE_H

#include <stdbool.h>

/* Called for each log removed (err 0), or that could not be (err errno). */
typedef void rg_log_pruned_fn(const char *path, int err, void *arg);

/* Removes, from $XDG_STATE_HOME/readguard (else ~/.local/state/readguard),
 * each log named as a default log of this user's sessions whose session
 * is no longer running and that has not changed for rg_prune_days() days.
 * Only regular files of this user, never through a symbolic link; a log a
 * user named (--log) does not have such a name, nor does a named
 * session's (run --session PATH: PATH's name), which is kept on purpose:
 * it cannot be told from a --log file, nor its session found to be over.
 * At most once an hour unless now_please. */
void rg_logs_prune(bool now_please, rg_log_pruned_fn *report, void *arg);

#endif
