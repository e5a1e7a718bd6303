/* What the verbs that look at and steer a session from outside it share:
 * choosing the session and parsing the options every such verb takes.
 * Finding the user's sessions is cli/tables.h. */
#ifndef RG_PICK_H
#define RG_PICK_H

#include <limits.h>
#include <stdbool.h>

#include "cli/tables.h"
#include "core/jrecord.h"
#include "core/table.h"
#include "os/members.h"
/* A session the CLI has mapped. */
struct rg_cli_session {
    char path[PATH_MAX];
    struct rg_table table;
};

/* What --session names, the one rule for every verb: a file that exists
 * is a table's path; else a session id (as status, sessions and history
 * print it) is looked for among this user's tables in the table
 * directories, the Claude Code hook's included; else it is a path, of a
 * table that is not there. */
struct rg_session_ref {
    const char *table;          /* the table to map, or NULL: an id with no table */
    char id[RG_JOURNAL_ID_MAX]; /* the id given, or "" */
    char found[PATH_MAX];       /* the table an id named */
};
void rg_session_resolve(const char *arg, struct rg_session_ref *ref);
/* The first lines of every verb's --session help, which says the above. */
#define RG_SESSION_HELP                                                               \
    "  -s, --session S      the session S: its table's path, or its id (as status,\n" \
    "                       sessions and history print it)"
/* ... and its default, for the verbs that act on a live table. */
#define RG_SESSION_HELP_LIVE                                                                       \
    RG_SESSION_HELP "; default:\n"                                                                 \
                    "                       $READGUARD_SESSION, else the one running session of\n" \
                    "                       this user\n"

/* Chooses and maps the session: --session ARG if given (as above), else
 * $READGUARD_SESSION, else the one running session of this user. Reports
 * why on stderr and returns -1 when there is none to choose. */
int rg_pick_session(const char *arg, struct rg_cli_session *s);
void rg_drop_session(struct rg_cli_session *s);

/* Is the process that owns the session alive: its creator (the preloaded
 * process that started it, the shell of `readguard env`, or the launcher
 * of `readguard run`), or the `run --session` that took a kept session
 * over from a gone one, which the header records as owner_pid? */
bool rg_session_owner_alive(const struct rg_header *h);

/* Does the session at path, owned by owner, end with another life than a
 * shell's: a `readguard run`'s (an owner that is this very program, as
 * env's exits at once) or, for the hook's tables, Claude Code's? Then an
 * `end` from its shell would remove the table under a running tree,
 * leaving it failing closed. Says whose, and when it ends, in out. */
bool rg_session_ends_elsewhere(const char *path, int32_t owner, char *out, size_t cap);

/* A session is running while its owner is, or, once the owner is gone
 * (a launcher killed with SIGKILL), while any process of its tree is: the
 * table at path is theirs (os/members.h), waited for out of wait while
 * seen in the middle of an exec. */
bool rg_session_running(const char *path, const struct rg_header *h, struct rg_exec_wait *wait);

/* getopt_long over the options every session verb takes (-s/--session,
 * unless no_session, and -h/--help) plus the verb's own. Returns the option character, as
 * getopt_long does; handles --session and --help itself. */
struct option;
struct rg_verb {
    const char *name;
    const char *usage;          /* printed by --help */
    const char *shortopts;      /* the verb's own, without s: and h */
    const struct option *longs; /* the verb's own, NULL-terminated, or NULL */
    const char *session;        /* --session PATH, once parsed */
    bool no_session;            /* acts on no one session: --session is unknown to it */
};
int rg_verb_getopt(struct rg_verb *v, int argc, char **argv);
/* "Try 'readguard VERB --help'." and RG_EXIT_TROUBLE. */
int rg_verb_usage_error(const struct rg_verb *v);
/* For a verb that takes no operands: RG_EXIT_OK, or the usage error that
 * names the first one left after the options. */
int rg_verb_no_operands(const struct rg_verb *v, int argc, char **argv);

/* The tail of every verb that takes FILE...: requires at least one, picks
 * the session, calls fn on each file and returns the worst exit code. */
int rg_verb_each_file(const struct rg_verb *v, int argc, char **argv, void *arg,
                      int (*fn)(struct rg_table *t, const char *path, void *arg));

#endif
