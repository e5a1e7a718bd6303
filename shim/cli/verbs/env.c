/* readguard env / readguard end: a session for a shell that already runs,
 * in the manner of `eval "$(ssh-agent)"`. */
#include "cli/verbs.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/prune.h"
#include "cli/journal/settle.h"
#include "cli/journal/store.h"
#include "cli/launch/named.h"
#include "cli/launch/run_opts.h"
#include "cli/launch/shim_path.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "os/session.h"
static const char env_usage[] =
    "Usage: eval \"$(readguard env [OPTION]...)\"\n"
    "Start a session and print the shell commands that make the current shell's\n"
    "children join it:\n"
    "  export LD_PRELOAD=.../libreadguard.so\n"
    "  export READGUARD_SESSION=/dev/shm/readguard-UID-...\n"
    "  export READGUARD_ROOTS=ROOT[:ROOT]...\n"
    "  export READGUARD_SESSION_LOG=LOG\n"
    "  export READGUARD_SESSION_ID=ID\n"
    "  export READGUARD_SESSION_FILE=DEV:INO:HASH\n"
    "The shell itself is not guarded (it is already running); every command it\n"
    "starts is. The session lives while the shell does; end it with\n"
    "  eval \"$(readguard end)\"\n"
    "\n"
    "Options are those of 'readguard run' (--root, --mode, --log, --capacity ...)\n"
    "but --supervise and --strict, which need a command; with --session PATH the\n"
    "shell joins the session at PATH, or creates it there; with --session ID it\n"
    "joins the running session whose id is ID.\n"
    "Plus:\n"
    "      --pid PID        the process whose life is the session's (default: the\n"
    "                       parent of readguard, i.e. the shell that runs eval)\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "In a shell whose READGUARD_SESSION names a running session, env starts no\n"
    "other: it says so and prints that session's commands again (exit status 0),\n"
    "or, given options that would set up a new session, prints nothing (125).\n"
    "\n"
    "Exit status: 0, or 125 if no session could be started.\n";

static const char end_usage[] =
    "Usage: eval \"$(readguard end [--session S])\"\n"
    "Remove the session's table and print the shell commands that take\n"
    "readguard out of LD_PRELOAD and unset READGUARD_SESSION, READGUARD_ROOTS,\n"
    "READGUARD_SESSION_LOG, READGUARD_SESSION_ID and READGUARD_SESSION_FILE.\n"
    "A session that has ended already is only unset; one that ends with a running\n"
    "'readguard run' or Claude Code (its hooks') is ended only with --session.\n"
    "\n" RG_SESSION_HELP "; default:\n"
    "                       $READGUARD_SESSION (never another running session)\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0, or 2 if there is no usable session.\n";

/* 'text', with each ' written as '\'' */
static void quoted(const char *s)
{
    putchar('\'');
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", stdout);
        else
            putchar(*s);
    putchar('\'');
}

static void export(const char *name, const char *value)
{
    printf("export %s=", name);
    quoted(value);
    puts(";");
}

/* LD_PRELOAD without readguard's shim: the entries whose file name is
 * libreadguard.so go, whatever their directory. */
static size_t without_shim(const char *preload, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (const char *p = preload ? preload : ""; *p;) {
        size_t n = strcspn(p, ": ");
        const char *slash = memrchr(p, '/', n);
        const char *name = slash ? slash + 1 : p;
        bool ours = (size_t)(p + n - name) == strlen("libreadguard.so") &&
                    strncmp(name, "libreadguard.so", strlen("libreadguard.so")) == 0;
        if (n && !ours && o + n + 2 < cap) {
            if (o)
                out[o++] = ':';
            memcpy(out + o, p, n);
            out[o += n] = '\0';
        }
        p += n;
        p += *p != '\0';
    }
    return o;
}

static void unpreload(void)
{
    char keep[PATH_MAX * 4];
    if (without_shim(getenv("LD_PRELOAD"), keep, sizeof keep))
        export("LD_PRELOAD", keep);
    else
        puts("unset LD_PRELOAD;");
    puts("unset " RG_ENV_SESSION ";");
    puts("unset " RG_ENV_ROOTS ";");
    puts("unset " RG_ENV_SESSION_LOG ";");
    puts("unset " RG_ENV_SESSION_ID ";");
    puts("unset " RG_ENV_SESSION_FILE ";");
}

/* Is this shell in a session already, one a second env would leave running
 * beside the new one (where 'readguard end' could not reach it, and where
 * the verbs run elsewhere would find two)? Its path goes to path, its id to
 * id and its owner's pid to owner. A READGUARD_SESSION that names no usable,
 * running session of this user does not count, but is reported: the new
 * session replaces it. */
static bool in_session(char *path, size_t cap, char id[RG_JOURNAL_ID_MAX], int32_t *owner)
{
    const char *env = getenv(RG_ENV_SESSION);
    if (!env || !*env)
        return false;
    struct rg_table t;
    const char *why = rg_session_attach(env, &t);
    if (why) {
        rg_err("env: READGUARD_SESSION names '%s', which is not a usable session (%s): "
               "starting a new one",
               rg_shown(env), why);
        return false;
    }
    rg_journal_id(id, t.hdr->created_ns, t.hdr->creator_pid);
    *owner = rg_header_owner(t.hdr);
    struct rg_exec_wait wait = {0};
    bool running = rg_session_running(env, t.hdr, &wait);
    rg_session_detach(&t);
    if (!running) {
        rg_err("env: READGUARD_SESSION names session %s, which has ended: starting a new one", id);
        return false;
    }
    snprintf(path, cap, "%s", env);
    return true;
}

/* Takes --pid out of argv, leaving run's options for run's parser. */
static int take_pid(int *argc, char **argv, int32_t *pid, bool *given)
{
    int o = 1;
    for (int i = 1; i < *argc; i++) {
        const char *val = NULL;
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[o++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--pid") == 0 && i + 1 < *argc)
            val = argv[++i];
        else if (strncmp(argv[i], "--pid=", 6) == 0)
            val = argv[i] + 6;
        if (!val) {
            argv[o++] = argv[i];
            continue;
        }
        char *end;
        long v = strtol(val, &end, 10);
        if (*end || end == val || v <= 0 || v > INT32_MAX) {
            rg_err("env: --pid '%s': not a process id", val);
            return -1;
        }
        if (kill((pid_t)v, 0) != 0 && errno == ESRCH) {
            rg_err("env: --pid %ld: no such process", v);
            return -1;
        }
        *pid = (int32_t)v;
        *given = true;
    }
    *argc = o;
    return 0;
}

/* Printed to a terminal, the commands run nowhere: a new user typing
 * `readguard env` to try it gets a session that guards nothing, yet runs
 * as long as the shell does, beside the one a later eval starts. */
static void tell_terminal(const char *id)
{
    if (isatty(STDOUT_FILENO))
        rg_err("env: a terminal shows these commands, it does not run them: "
               "eval \"$(readguard env)\" does. Session %s, started for them, runs until "
               "its shell exits ('readguard end --session %s' ends it now)",
               id, id);
}

/* Prints the commands that make the shell's children join the session at
 * path; made: this env made its table, which a failure then removes; fresh:
 * it made a session, named or not. */
static int print_exports(const char *path, const char *shim, bool made, bool fresh)
{
    /* The roots, the log and the id go along with the table: a child that
     * finds the table removed then still guards them all, not just its
     * working directory, and logs what it refuses under the session's id. */
    char preload[PATH_MAX * 5];
    struct rg_fallback fb;
    /* The session was chosen and checked against this shell's binding
     * already: a new one, or a named one, is bound anew. */
    unsetenv(RG_ENV_SESSION_FILE);
    const char *why = rg_session_fallback(path, &fb);
    if (why) {
        rg_err("env: session '%s': %s", rg_shown(path), why);
        if (made)
            unlink(path);
        return RG_EXIT_FAILURE;
    }
    /* A shell that already joined a session must not load the shim twice. */
    char old[PATH_MAX * 4];
    size_t n = without_shim(getenv("LD_PRELOAD"), old, sizeof old);
    snprintf(preload, sizeof preload, "%s%s%s", shim, n ? ":" : "", old);
    export("LD_PRELOAD", preload);
    export(RG_ENV_SESSION, path);
    export(RG_ENV_ROOTS, fb.roots);
    export(RG_ENV_SESSION_LOG, fb.log);
    export(RG_ENV_SESSION_ID, fb.id);
    export(RG_ENV_SESSION_FILE, fb.bind);
    if (fresh)
        tell_terminal(fb.id);
    return RG_EXIT_OK;
}

/* "--mode, --log" + opt */
static void add_opt(char *list, size_t cap, const char *opt)
{
    size_t n = strlen(list);
    snprintf(list + n, cap - n, "%s%s", n ? ", " : "", opt);
}

/* The shell is in a session already. Without options, env again is harmless
 * (a profile sourced twice): the same session's commands once more. With
 * options that would set up a session, printing the running one's would
 * drop them unsaid, and starting another would strand the first. */
static int stay(const char *path, const char *id, const char *shim, const char *given,
                bool named_other, bool pid_given, int32_t now)
{
    char opts[600];
    snprintf(opts, sizeof opts, "%s", given);
    if (named_other)
        add_opt(opts, sizeof opts, "--session");
    if (pid_given)
        add_opt(opts, sizeof opts, "--pid");
    char by[160];
    if (!*opts) {
        bool other = rg_session_ends_elsewhere(path, now, by, sizeof by);
        rg_err("env: this shell is in session %s already (%s%s)", id, other ? "that of " : "",
               other ? by : "'readguard end' ends it first");
        return print_exports(path, shim, false, false);
    }
    rg_err("env: this shell is in session %s already, which keeps its own settings: %s not "
           "applied, and no new session started ('readguard end' ends it first)",
           id, opts);
    return RG_EXIT_FAILURE;
}

/* Does --session named (a path or an id) name the table at path? */
static bool names_table(const char *named, const char *path)
{
    struct rg_session_ref ref;
    struct stat a, b;
    rg_session_resolve(named, &ref);
    return ref.table && stat(ref.table, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* A new session with settings s, or the one at --session named; its path
 * goes to path. Returns 1 if it made the table, 0 if it joined, -1. */
static int start(const struct rg_settings *s, const char *named, const char *given, int32_t owner,
                 char *path, size_t cap)
{
    char err[512];
    if (named) {
        int made = rg_session_open_named(named, s, owner, path, cap);
        if (made == 0)
            rg_run_warn_joined(path, given);
        return made;
    }
    struct rg_exec_wait wait = {0};
    if (rg_session_create(s, owner, path, cap, err, sizeof err, &wait) < 0) {
        rg_err("env: %s", err);
        return -1;
    }
    return 1;
}

int rg_cmd_env(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(env_usage, stdout);
            return RG_EXIT_OK;
        }
    int32_t owner = (int32_t)getppid();
    bool pid_given = false;
    if (take_pid(&argc, argv, &owner, &pid_given) < 0)
        return RG_EXIT_FAILURE;
    const char *named = NULL;
    const char *given = NULL;
    const struct rg_settings *s = rg_run_settings(argc, argv, &named, &given);
    char shim[PATH_MAX], path[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    if (!s)
        return RG_EXIT_FAILURE;
    if (rg_preload_path(shim, sizeof shim) < 0) {
        rg_err("env: cannot find libreadguard.so next to the readguard binary or in ../lib/");
        return RG_EXIT_FAILURE;
    }
    int32_t now = 0;
    if (in_session(path, sizeof path, id, &now))
        return stay(path, id, shim, given ? given : "", named && !names_table(named, path),
                    pid_given && owner != now, now);
    int made = start(s, named, given, owner, path, sizeof path);
    if (made < 0)
        return RG_EXIT_FAILURE;
    return print_exports(path, shim, made == 1 && !named, made == 1);
}

/* How the session left each file it changed, as the end of a run records
 * it (journal/store.h): else undo would take a later edit for the session's. And
 * the prune a run's end makes: a user who never wraps a command in
 * `readguard run` would otherwise keep every session's versions, past any
 * age and size. The table is still there, so the prune keeps this session. */
static void close_journal(const struct rg_header *h)
{
    if ((h->flags & RG_POLICY_NO_JOURNAL) || !h->journal_dir[0])
        return;
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, h->created_ns, h->creator_pid);
    rg_jstore_close_session(h->journal_dir, id);
    rg_jsettle_session(h->journal_dir, id);
    rg_jprune(h->journal_dir, false);
}

int rg_cmd_end(int argc, char **argv)
{
    struct rg_verb v = {"end", end_usage, "", NULL, NULL, false};
    if (rg_verb_getopt(&v, argc, argv) != -1)
        return rg_verb_usage_error(&v);
    if (rg_verb_no_operands(&v, argc, argv) != RG_EXIT_OK)
        return RG_EXIT_TROUBLE;
    /* Unlike the other verbs, no falling back to the one running session:
     * that is some other tree's 'run', and removing its table ends it. */
    const char *env = getenv(RG_ENV_SESSION);
    if (!v.session && !(env && *env)) {
        rg_err("end: this shell is in no session (READGUARD_SESSION is unset), so there is "
               "nothing to end; 'readguard end --session S' ends session S");
        return RG_EXIT_TROUBLE;
    }
    struct stat st;
    if (!v.session && stat(env, &st) != 0 && errno == ENOENT) {
        rg_err("end: session '%s' (from READGUARD_SESSION) has ended already: only unsetting it",
               rg_shown(env));
        unpreload(); /* else every command the shell starts fails closed */
        return RG_EXIT_OK;
    }
    struct rg_cli_session s;
    if (rg_pick_session(v.session, &s) < 0)
        return RG_EXIT_TROUBLE;
    char by[160];
    if (!v.session &&
        rg_session_ends_elsewhere(s.path, rg_header_owner(s.table.hdr), by, sizeof by)) {
        rg_err("end: this shell is in the session of %s ('readguard end --session S' would "
               "end it under its running tree)",
               by);
        rg_drop_session(&s);
        return RG_EXIT_TROUBLE;
    }
    close_journal(s.table.hdr);
    rg_drop_session(&s);
    if (unlink(s.path) != 0) {
        rg_err("end: cannot remove '%s': %s", rg_shown(s.path), strerror(errno));
        return RG_EXIT_TROUBLE;
    }
    unpreload();
    if (isatty(STDOUT_FILENO))
        rg_err("end: a terminal shows these commands, it does not run them: "
               "eval \"$(readguard end)\" does, now that the session has ended");
    return RG_EXIT_OK;
}
