/* readguard run: create a session, run a command in it, wait for it (and
 * for the whole process tree when supervised), remove the session. */
#include "cli/verbs.h"
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/live.h"
#include "cli/journal/prune.h"
#include "cli/journal/settle.h"
#include "cli/journal/store.h"
#include "cli/launch/named.h"
#include "cli/launch/run_opts.h"
#include "cli/launch/shim_path.h"
#include "cli/launch/supervise.h"
#include "cli/launch/tree.h"
#include "cli/logprune.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "os/session.h"

/* A --strict tree gets no library and no session: every guarded call is
 * the supervisor's to answer, and the table is sealed from it (a library
 * could not attach it). Otherwise the roots, the log and the id go along
 * with the table: a process that finds the table removed then still guards
 * them all, not just its working directory, and logs what it refuses under
 * the session's id. */
static int export_env(const char *session, bool strict)
{
    char shim[PATH_MAX], preload[PATH_MAX * 2];
    struct rg_fallback fb;
    /* The session was chosen and checked against the environment's
     * binding already: a new one, or a named one, is bound anew. */
    unsetenv(RG_ENV_SESSION_FILE);
    if (strict) {
        unsetenv(RG_ENV_SESSION);
        return 0;
    }
    if (rg_preload_path(shim, sizeof shim) < 0) {
        rg_err("cannot find libreadguard.so next to the readguard binary or in "
               "../lib/readguard/");
        return -1;
    }
    const char *why = rg_session_fallback(session, &fb);
    if (why) {
        rg_err("session '%s': %s", rg_shown(session), why);
        return -1;
    }
    const char *old = getenv("LD_PRELOAD");
    if (old && *old)
        snprintf(preload, sizeof preload, "%s:%s", shim, old);
    else
        snprintf(preload, sizeof preload, "%s", shim);
    /* Node's libuv would open files through io_uring, unseen by the shim. */
    if (setenv("LD_PRELOAD", preload, 1) != 0 || setenv(RG_ENV_SESSION, session, 1) != 0 ||
        setenv(RG_ENV_ROOTS, fb.roots, 1) != 0 || setenv(RG_ENV_SESSION_LOG, fb.log, 1) != 0 ||
        setenv(RG_ENV_SESSION_ID, fb.id, 1) != 0 || setenv(RG_ENV_SESSION_FILE, fb.bind, 1) != 0 ||
        setenv("UV_USE_IO_URING", "0", 1) != 0) {
        rg_err("cannot set the environment: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* How the session left each file it changed, so that undo can tell a later
 * change from the session's own (journal/store.h). A table that outlives the run
 * is noted first, so that no prune drops what it says the journal kept
 * (journal/live.h), this run's own prune included. */
static void close_journal(const char *session, bool kept)
{
    struct rg_table t;
    if (rg_session_attach(session, &t) != NULL)
        return;
    const struct rg_header *h = t.hdr;
    if (!(h->flags & RG_POLICY_NO_JOURNAL) && h->journal_dir[0]) {
        char id[RG_JOURNAL_ID_MAX];
        rg_journal_id(id, h->created_ns, h->creator_pid);
        char table[PATH_MAX];
        if (kept && realpath(session, table))
            rg_jlive_note(h->journal_dir, id, table);
        rg_jstore_close_session(h->journal_dir, id);
        rg_jsettle_session(h->journal_dir, id);
        rg_jprune(h->journal_dir, false);
    }
    rg_session_detach(&t);
}

/* A named session that was joined, or asked to be kept, outlives this run.
 * Its own log is not pruned: the session is running until its table goes. */
static void end_session(const char *session, bool kept)
{
    close_journal(session, kept);
    rg_logs_prune(false, NULL, NULL);
    if (!kept)
        unlink(session);
}

/* A table kept under the name readguard chose, in a table directory, is
 * an ended session's, which the next session made there prunes: --keep
 * alone keeps the reads for less time than its user expects, and tells
 * no name to give --session. */
static void warn_unnamed_keep(const char *session)
{
    rg_err("warning: --keep without --session: the table '%s' is kept only until the next "
           "session made beside it removes it; to continue a session later, name its table: "
           "'readguard run --session PATH --keep'",
           rg_shown(session));
}

/* The session the command runs in, its table's path in session: 1 when it
 * was made here, 0 when --session joined one (whose settings win over the
 * options given, as the user is told), -1 after saying why there is none. */
static int start_session(const struct rg_run_opts *o, char *session, size_t cap)
{
    char err[512];
    if (!o->session) {
        struct rg_exec_wait wait = {0};
        if (rg_session_create(&o->s, (int32_t)getpid(), session, cap, err, sizeof err, &wait) < 0) {
            rg_err("%s", err);
            return -1;
        }
        return 1;
    }
    int made = rg_session_open_named(o->session, &o->s, (int32_t)getpid(), session, cap);
    if (made == 0)
        rg_run_warn_joined(session, o->given);
    return made;
}

/* Runs cmd as opts says, under the supervisor sup when it asks for one. */
static int run(const struct rg_run_opts *opts, char **cmd, struct rg_supervisor *sup)
{
    char session[PATH_MAX];
    int made = start_session(opts, session, sizeof session);
    if (made < 0)
        return RG_EXIT_FAILURE;
    bool kept = opts->keep || !made;
    if (export_env(session, opts->supervise == RG_SUPERVISE_STRICT) < 0 ||
        prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        end_session(session, kept);
        return RG_EXIT_FAILURE;
    }
    int sv[2];
    if (rg_supervise_prepare(sup, opts->supervise, sv, session) < 0) {
        end_session(session, kept);
        return RG_EXIT_FAILURE;
    }
    rg_tree_forward_signals();
    pid_t pid = fork();
    if (pid < 0) {
        rg_err("cannot fork: %s", strerror(errno));
        end_session(session, kept);
        return RG_EXIT_FAILURE;
    }
    if (pid == 0) {
        rg_supervise_child(opts->supervise, sv);
        rg_tree_exec(cmd, opts->supervise != RG_SUPERVISE_STRICT);
    }
    if (rg_supervise_parent(sup, opts->supervise, sv, pid) < 0) {
        end_session(session, kept);
        return RG_EXIT_FAILURE;
    }
    /* A tree under the library alone needs nothing of readguard once its
     * command is done, and a tool call wrapped in run must end as it would
     * bare: what the command left running (a server started with &, the
     * gpg-agent of git commit -S) keeps the table, which the next session
     * or sessions --prune removes once it is gone. A supervised tree's
     * calls are answered here: it is waited for whole. */
    bool rest;
    int status = rg_tree_wait(pid, opts->supervise != RG_SUPERVISE_NONE, &rest);
    rg_supervise_finish(sup);
    end_session(session, kept || rest);
    if (opts->keep && !opts->session)
        warn_unnamed_keep(session);
    return status;
}

int rg_cmd_run(int argc, char **argv)
{
    /* Static for its size alone: rg_cmd_run runs once per process. */
    static struct rg_run_opts opts;
    int first = rg_run_parse(argc, argv, &opts);
    if (first < 0)
        return RG_EXIT_FAILURE;
    rg_prune_settings_check();
    /* None unless supervised: a run under the library alone maps nothing more. */
    struct rg_supervisor *sup = opts.supervise ? rg_supervisor_new() : NULL;
    if (opts.supervise && !sup) {
        rg_err("out of memory");
        return RG_EXIT_FAILURE;
    }
    int status = run(&opts, argv + first, sup);
    rg_supervisor_free(sup);
    return status;
}
