/* The conversation's session: its start (or its join, on --resume), its
 * end, its reads forgotten, and who owns its table. */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/hook/hook.h"
#include "cli/journal/store.h"
#include "cli/launch/ccenv.h"
#include "cli/launch/named.h"
#include "cli/launch/shim_path.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/table.h"
#include "os/gitroot.h"
#include "os/session.h"

/* No table: the conversation has no session, not yet or no longer, and
 * there is nothing to do or say (the attach's raw calls leave errno alone). */
static bool no_table(const char *table)
{
    struct stat st;
    return lstat(table, &st) != 0 && errno == ENOENT;
}

int rg_hook_forget_reads(const char *table)
{
    struct rg_table t;
    if (no_table(table))
        return 0;
    const char *why = rg_session_attach(table, &t);
    if (why)
        return rg_hook_trouble("cannot reset the session: %s", why);
    rg_table_reset(&t);
    rg_session_detach(&t);
    return 0;
}

/* Claude Code, as its hooks are told: CLAUDE_PID; 0 when not. */
static int32_t claude_pid(void)
{
    const char *pid = getenv("CLAUDE_PID");
    char *end;
    long v = pid ? strtol(pid, &end, 10) : 0;
    return pid && !*end && v > 0 && v <= INT32_MAX ? (int32_t)v : 0;
}

/* A conversation resumed in a second Claude Code while the first runs
 * shares the table; once the first exits, the one still running must own
 * it, or a prune would take it away under its next Write. */
void rg_hook_own_if_orphaned(const struct rg_table *t)
{
    int32_t me = claude_pid();
    if (me && !rg_session_owner_alive(t->hdr) && rg_pid_alive(me))
        atomic_store(&t->hdr->owner_pid, me);
}

/* The tables of conversations whose Claude Code is gone pile up where the
 * hook makes them (80 MiB each, sparse): the start of the next one is
 * where they go, as a run's start removes ended sessions' tables. After
 * this one's is opened: a resumed conversation's own table, whose owner
 * is gone until it is joined, is kept. */
static void prune_beside(const char *table)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", table);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    slash[slash == dir] = '\0';
    struct rg_exec_wait wait = {0};
    rg_session_prune(dir, &wait);
}

/* run's settings, from its options in argv, for a session the hook makes:
 * rooted in root (cap bytes) at the project directory's git work tree, as
 * readguard run would take from there: the model's git commands change all
 * of it. argc is at most 60. */
static const struct rg_settings *start_settings(const char *project, int argc, char **argv,
                                                char *root, size_t cap)
{
    char cwd[PATH_MAX];
    snprintf(root, cap, "%s", project[0] ? project : ".");
    if (realpath(root, cwd))
        rg_default_root(cwd, root, cap);
    char *args[64] = {"hook", "--root", root};
    memcpy(args + 3, argv, (size_t)argc * sizeof *argv);
    const char *named = NULL;
    return rg_run_settings(argc + 3, args, &named, NULL);
}

/* Claude Code adds SessionStart's output to the model's context. */
static void tell_the_model(const char *root)
{
    printf("Files under %s are guarded by readguard. Writing an existing file that you have "
           "not read in this session (with the Read tool or a shell command), or that changed "
           "since you read it, is refused: a shell command fails with 'Permission denied' and a "
           "'readguard: refused' line, a Write or Edit is denied with the reason. Read the file, "
           "then retry.\n",
           root);
}

int rg_hook_session_start(struct rg_hook_input *in, int argc, char **argv)
{
    const char *env_file = getenv("CLAUDE_ENV_FILE");
    if (!env_file || !*env_file)
        return rg_hook_trouble(
            "%s", "CLAUDE_ENV_FILE is not set: this Claude Code cannot pass variables "
                  "to its Bash tool; launch it with 'readguard run -- claude' instead");
    /* Each hook runs in a short-lived sh; Claude Code itself is CLAUDE_PID. */
    int32_t owner = claude_pid();
    if (!owner) {
        rg_hook_trouble("%s", "CLAUDE_PID is not set: the session is tied to this hook's parent");
        owner = getppid();
    }
    char shim[PATH_MAX], table[PATH_MAX], root[PATH_MAX];
    if (rg_preload_path(shim, sizeof shim) < 0)
        return rg_hook_trouble("%s", "cannot find libreadguard.so next to readguard or in ../lib/");
    if (argc > 60)
        return rg_hook_trouble("%s", "too many options");
    const struct rg_settings *s = start_settings(in->cwd, argc, argv, root, sizeof root);
    /* Mapped, a resumed conversation's table is this hook's, for another
     * start's prune, until its owner is Claude Code again. */
    struct rg_table held;
    bool hold = !rg_session_attach(in->table, &held);
    int r = s ? rg_session_open_named(in->table, s, owner, table, sizeof table) : -1;
    if (r >= 0 && !in->joined)
        prune_beside(table);
    if (hold)
        rg_session_detach(&held);
    if (r < 0)
        return rg_hook_trouble("could not start the session '%s'", rg_shown(in->table));
    if (strcmp(in->source, "clear") == 0 || strcmp(in->source, "compact") == 0)
        rg_hook_forget_reads(table);
    if (rg_ccenv_write(env_file, table, shim) != 0)
        return rg_hook_trouble("cannot write $CLAUDE_ENV_FILE '%s'", rg_shown(env_file));
    tell_the_model(root);
    return 0;
}

/* Claude Code leaves the conversation: how the session left each file it
 * changed goes into the journal now, as a run's end records it, so that
 * undo still tells a later edit from the session's own once the table is
 * pruned. The table stays, for claude --resume; a session Claude Code only
 * joined is ended by whoever started it. */
int rg_hook_session_end(const struct rg_hook_input *in)
{
    struct rg_table t;
    if (in->joined || no_table(in->table))
        return 0;
    const char *why = rg_session_attach(in->table, &t);
    if (why)
        return rg_hook_trouble("cannot end the session: %s", why);
    const struct rg_header *h = t.hdr;
    if (!(h->flags & RG_POLICY_NO_JOURNAL) && h->journal_dir[0]) {
        char id[RG_JOURNAL_ID_MAX];
        rg_journal_id(id, h->created_ns, h->creator_pid);
        rg_jstore_close_session(h->journal_dir, id);
    }
    rg_session_detach(&t);
    return 0;
}
