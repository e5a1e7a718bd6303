/* readguard sessions: this user's sessions, and removing the dead ones. */
#include "cli/verbs.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/prune.h"
#include "cli/json/out.h"
#include "cli/logprune.h"
#include "cli/pick.h"
#include "cli/policy_show.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/text.h"
#include "os/clock.h"
#include "os/session.h"
static const char usage[] =
    "Usage: readguard sessions [--prune] [--json]\n"
    "List this user's sessions in the table directories ($READGUARD_DIR if set,\n"
    "else /dev/shm, $XDG_RUNTIME_DIR and /tmp): path, state, owning pid, creation\n"
    "time, first root.\n"
    "A session is running while the process that owns it lives (the launcher of\n"
    "'readguard run', the shell of 'readguard env', or the preloaded process that\n"
    "started it), or any process of its tree does. A table no process uses any\n"
    "more is 'ended'; a file with a table's name that is not a usable table is\n"
    "'broken'. The Claude Code hook's sessions (readguard-claude-ID, owned by\n"
    "Claude Code) are listed too, marked 'claude-code hook'. Sessions named with\n"
    "'run --session PATH' live where their user put them, and are not listed.\n"
    "\n"
    "  -p, --prune          remove ended sessions, broken ones older than a minute,\n"
    "                       and the default logs of sessions no longer running\n"
    "                       unchanged for READGUARD_JOURNAL_DAYS (default 30) days\n"
    "                       (a named session's log is kept: see readguard(1)),\n"
    "                       then prune the journal by its age and size\n"
    "  -j, --json           one JSON object per line\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0 (with no session, and nothing removed, 'no sessions' on\n"
    "stderr), or 2 if a table or a log could not be removed, or if\n"
    "$READGUARD_DIR is set to no directory.\n";

struct listing {
    bool prune, json;
    int rc;
    size_t n, removed;
    struct rg_exec_wait wait; /* for all the tables listed */
};

/* Its name is the only mark: the hook's tables are made as any other. */
static bool hook_table(const char *path)
{
    const char *name = strrchr(path, '/');
    return rg_hook_table_name(name ? name + 1 : path);
}

static void show(const struct listing *l, const char *path, const char *state,
                 const struct rg_header *h, const char *why)
{
    bool hook = hook_table(path);
    if (l->json) {
        bool first = true;
        fputc('{', stdout);
        rg_jmember_str(stdout, &first, "session", path);
        rg_jmember_str(stdout, &first, "state", state);
        if (hook)
            rg_jmember_str(stdout, &first, "hook", "claude-code");
        if (h) {
            char id[RG_JOURNAL_ID_MAX];
            rg_journal_id(id, h->created_ns, h->creator_pid);
            rg_jmember_str(stdout, &first, "id", id);
            rg_jmember_int(stdout, &first, "pid", rg_header_owner(h));
            rg_jmember_time(stdout, &first, "created", h->created_ns);
            rg_roots_show_json(stdout, &first, h);
        } else {
            rg_jmember_str(stdout, &first, "problem", why);
        }
        puts("}");
        return;
    }
    const char *mark = hook ? "  claude-code hook" : "";
    if (!h) {
        printf("%s  %s  (%s)%s\n", rg_shown(path), state, why, mark);
        return;
    }
    char created[RG_TIME_LEN];
    rg_format_time(h->created_ns, created);
    printf("%s  %s  pid %d  since %s  root %s%s%s\n", rg_shown(path), state,
           (int)rg_header_owner(h), created, h->nroots ? rg_shown(h->roots) : "-",
           h->nroots > 1 ? " ..." : "", mark);
}

static void prune(struct listing *l, const char *path)
{
    if (unlink(path) == 0) {
        l->removed++;
        if (!l->json)
            printf("removed %s\n", rg_shown(path));
        return;
    }
    rg_err("sessions: cannot remove '%s': %s", rg_shown(path), strerror(errno));
    l->rc = RG_EXIT_TROUBLE;
}

static void pruned_log(const char *path, int err, void *arg)
{
    struct listing *l = arg;
    if (!err) {
        l->removed++;
        if (!l->json)
            printf("removed %s\n", rg_shown(path));
        return;
    }
    rg_err("sessions: cannot remove '%s': %s", rg_shown(path), strerror(err));
    l->rc = RG_EXIT_TROUBLE;
}

static void each(const char *path, void *arg)
{
    struct listing *l = arg;
    l->n++;
    struct rg_table t;
    const char *why = rg_session_attach(path, &t);
    if (why) {
        struct stat st;
        /* A table is formatted within moments of its creation: only an old
         * unusable file is debris rather than a session being born. */
        bool old = lstat(path, &st) == 0 && rg_now_ns() / 1000000000 - st.st_mtime > 60;
        show(l, path, "broken", NULL, why);
        if (l->prune && old)
            prune(l, path);
        return;
    }
    bool running = rg_session_running(path, t.hdr, &l->wait);
    show(l, path, running ? "running" : "ended", t.hdr, NULL);
    rg_session_detach(&t);
    if (l->prune && !running)
        prune(l, path);
}

/* Says so when READGUARD_DIR names no directory: it is the only one looked
 * in, and a typo in it would read as "no sessions". */
static bool dir_unusable(void)
{
    const char *dir = getenv(RG_ENV_DIR);
    struct stat st;
    int bad = 0;
    if (dir && *dir && stat(dir, &st) != 0)
        bad = errno;
    else if (dir && *dir && !S_ISDIR(st.st_mode))
        bad = ENOTDIR;
    if (bad)
        rg_err("sessions: READGUARD_DIR '%s', the only directory looked in: %s", rg_shown(dir),
               strerror(bad));
    return bad != 0;
}

int rg_cmd_sessions(int argc, char **argv)
{
    static const struct option longs[] = {
        {"prune", no_argument, NULL, 'p'}, {"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    /* It lists every session: silently ignoring --session would pass for
     * listing only that one. */
    struct rg_verb v = {"sessions", usage, "pj", longs, NULL, true};
    struct listing l = {false, false, RG_EXIT_OK, 0, 0, {0}};
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch == 'p')
            l.prune = true;
        else if (ch == 'j')
            l.json = true;
        else
            return rg_verb_usage_error(&v);
    }
    if (rg_verb_no_operands(&v, argc, argv) != RG_EXIT_OK)
        return RG_EXIT_TROUBLE;
    rg_each_table(each, &l);
    if (l.prune) {
        /* After the tables: a log is pruned only once its session is gone,
         * and a table keeps its session's versions. Only the end of a run
         * or of `readguard end` prunes the journal otherwise: a user of bare
         * preloaded sessions has no other way to keep it to its age and size. */
        rg_logs_prune(true, pruned_log, &l);
        char journal[PATH_MAX];
        rg_session_default_journal(journal, sizeof journal);
        rg_jprune(journal, true);
    }
    /* Last: "no sessions" after "removed" lines would say nothing was done. */
    if (l.n == 0 && l.removed == 0)
        rg_err("no sessions");
    return dir_unusable() ? RG_EXIT_TROUBLE : l.rc;
}
