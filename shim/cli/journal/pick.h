#ifndef RG_JPICK_H
#define RG_JPICK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The journal directory and, with --session, that session's id: from the
 * session table if one is named (--session, else $READGUARD_SESSION), else
 * the default under $XDG_STATE_HOME. --session is resolved as every verb
 * resolves it (pick.h); an id whose table is gone (the session ended) is
 * looked for in the default journal. id is "" when not restricted.
 * Returns -1 after reporting. */
int rg_journal_pick(const char *session, char *dir, size_t cap, char *id, size_t idcap);

/* Why the journal may hold nothing of abs, as a clause to end "no session
 * kept a version of it" with: written once, so undo, diff and history say
 * it alike. A session with --no-journal over abs whose table is still
 * there is named; else a file that is gone was moved or removed where no
 * session kept it, and may be under a new name; one that is there may have
 * been moved to the backup beside it, which is named. Else the general
 * reason, or "" unless always. Written into why when it names a file. */
#define RG_NONE_WHY_MAX (4 * NAME_MAX + 256) /* the name escaped: up to 4 bytes each */
const char *rg_journal_none_why(const char *abs, bool always, char why[RG_NONE_WHY_MAX]);

/* The current directory; where a session removed it from under the user's
 * shell (getcwd fails ENOENT), the name the shell knows it by, $PWD, said
 * once on stderr: undo recreates it. False if neither. */
bool rg_journal_cwd(char *out, size_t cap);

/* The absolute path the shim would have recorded for FILE, which may be
 * gone: symlinks in its directory resolved, relative to the cwd. False for
 * "" and for a name ending in '/' that is no directory now. */
bool rg_journal_abs(const char *file, char *out, size_t cap);
/* What abs, a directory the journal kept files under, is now: "gone", or
 * what took its name ("a file", "no directory"), to follow "was a
 * directory," so that the user is not told a file there is gone. */
const char *rg_journal_dir_now(const char *abs);

struct rg_jlist;
struct rg_jrec;
/* The change of FILE whose kept version VERB ("undo", "diff") starts from:
 * the first by session ONLY, or by the most recent session that changed
 * it; abs (PATH_MAX bytes) gets the path it is known by. NULL after saying
 * why there is none, with *rc the exit status: undo and diff refuse alike. */
const struct rg_jrec *rg_journal_version_of(const struct rg_jlist *l, const char *verb,
                                            const char *only, const char *file, char *abs, int *rc);

#endif
