/* readguard run's command line: its usage, the options it takes, and their
 * parse into the settings of a new session (each value checked by
 * run_values.c), done once for run and lent to env and hook, which create
 * sessions the same way. */
#include "cli/launch/run_opts.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/launch/supervise.h"
#include "cli/shown.h"
#include "cli/verbs.h"
static const char run_usage[] =
    "Usage: readguard run [OPTION]... [--] COMMAND [ARG]...\n"
    "Run COMMAND in a new session: writes to existing files under the roots are\n"
    "refused (EACCES) unless the session has read them and they have not changed\n"
    "since.\n"
    "\n"
    "  -r, --root DIR       guard writes under DIR; repeatable (default: the top of\n"
    "                       the git work tree holding the current directory unless\n"
    "                       that is / or $HOME, else the current directory)\n"
    "  -m, --mode MODE      'enforce' refuses (default); 'warn' allows, and logs what\n"
    "                       enforce would refuse\n"
    "  -l, --log FILE       append one JSON line per refusal, warning or mark to FILE\n"
    "                       (default: $XDG_STATE_HOME/readguard/TABLE.log, else\n"
    "                       ~/.local/state/readguard/TABLE.log, where TABLE is the\n"
    "                       session table's name, readguard-UID-RANDOM)\n"
    "      --capacity N     how many files the session can track (16 to 67108864;\n"
    "                       k and M count thousands and millions; default 1048576)\n"
    "  -s, --session PATH   join the session whose table is PATH, or create it there;\n"
    "                       or join the running session whose id is PATH (as status\n"
    "                       prints it); an existing table keeps its own settings\n"
    "  -k, --keep           keep the session table when COMMAND ends, so a later\n"
    "                       'run --session PATH' continues with the same reads\n"
    "                       (without --session, until the next session prunes it)\n"
    "  -i, --ignore PATTERN do not guard paths matching PATTERN (gitignore syntax,\n"
    "                       relative to each root); repeatable, and wins over the\n"
    "                       defaults and .readguardignore\n"
    "      --no-default-ignores  guard build outputs, VCS internals and /tmp too\n"
    "                       (see readguard(1), IGNORE RULES)\n"
    "      --allow-append   let O_APPEND opens without O_TRUNC through unread files\n"
    "                       (their old bytes kept first; they stay unread)\n"
    "      --guard-unlink   refuse to remove an existing file that is unread or\n"
    "                       changed\n"
    "      --no-journal     do not keep the old bytes of files the session changes\n"
    "                       (default: kept for 'readguard undo', see readguard(1))\n"
    "      --journal-max-file SIZE  keep no file larger than SIZE (K, M, G; default\n"
    "                       64M, or $READGUARD_JOURNAL_MAX_FILE)\n"
    "      --read-ttl SECS  a read older than SECS seconds no longer counts\n"
    "      --scan-files N   a process reading more than N files (default 8) within\n"
    "                       the scan window is scanning: its reads unlock writes by\n"
    "                       it and its descendants only; 0: every read counts\n"
    "      --scan-window SECS  the scan window (default 1)\n"
    "      --supervise      also guard programs the preload cannot see (static,\n"
    "                       Go, Bun, raw system calls) with a seccomp supervisor\n"
    "      --strict         like --supervise, and trust nothing in the tree: every\n"
    "                       guarded call goes through the supervisor\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status is COMMAND's; 125 if readguard itself failed, 126 if COMMAND could\n"
    "not be run, 127 if it was not found, 128+N if it was killed by signal N.\n"
    "run returns when COMMAND exits (with --supervise or --strict, when the whole\n"
    "tree has), removing the session's table unless it was kept or joined; a\n"
    "process left running in the background stays guarded, and its table is\n"
    "removed once it is gone, by the next session or 'readguard sessions --prune'.\n";

/* Notes option ch (from longs) in o->given if it sets the table: the rest
 * (--session, --keep, --supervise, --strict) belong to this run. */
static void note_given(struct rg_run_opts *o, const struct option *longs, int ch)
{
    const char *name = NULL;
    for (const struct option *l = longs; l->name && !name; l++)
        if (l->val == ch)
            name = l->name;
    if (!name || ch == 's' || ch == 'h' || ch == 'k' || strcmp(name, "supervise") == 0 ||
        strcmp(name, "strict") == 0)
        return;
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", name);
    const char *at = strstr(o->given, flag);
    size_t n = strlen(flag);
    if (at && (at[n] == '\0' || at[n] == ','))
        return; /* named once */
    size_t len = strlen(o->given);
    snprintf(o->given + len, sizeof o->given - len, "%s%s", len ? ", " : "", flag);
}

void rg_run_warn_joined(const char *session, const char *given)
{
    if (given && given[0])
        rg_err("warning: joined the existing session '%s', which keeps its own settings: "
               "%s ignored",
               rg_shown(session), given);
}

enum {
    OPT_CAPACITY = 256,
    OPT_NO_DEFAULT_IGNORES,
    OPT_ALLOW_APPEND,
    OPT_GUARD_UNLINK,
    OPT_READ_TTL,
    OPT_SUPERVISE,
    OPT_STRICT,
    OPT_NO_JOURNAL,
    OPT_SCAN_FILES,
    OPT_SCAN_WINDOW,
    OPT_JOURNAL_MAX_FILE
};

/* One option of run's, ch, with its optarg: 0, or -1 when it is bad (said). */
static int apply(struct rg_run_opts *o, int ch)
{
    switch (ch) {
    case 'r': return rg_run_add_root(o, optarg);
    case 'm': return rg_run_set_mode(o, optarg);
    case 'l': return rg_run_set_log(o, optarg, "--log");
    case 'i': return rg_run_add_ignore(o, optarg);
    case OPT_NO_DEFAULT_IGNORES: o->s.flags |= RG_POLICY_NO_DEFAULT_IGNORES; return 0;
    case OPT_ALLOW_APPEND: o->s.flags |= RG_POLICY_ALLOW_APPEND; return 0;
    case OPT_GUARD_UNLINK: o->s.flags |= RG_POLICY_GUARD_UNLINK; return 0;
    case OPT_NO_JOURNAL: o->s.flags |= RG_POLICY_NO_JOURNAL; return 0;
    case OPT_JOURNAL_MAX_FILE: return rg_run_set_journal_max_file(o, optarg, "--journal-max-file");
    case OPT_READ_TTL: return rg_run_set_read_ttl(o, optarg);
    case OPT_SCAN_FILES: return rg_run_set_scan_files(o, optarg);
    case OPT_SCAN_WINDOW: return rg_run_set_scan_window(o, optarg);
    case OPT_CAPACITY: return rg_run_set_capacity(o, optarg);
    case 's': o->session = optarg; return 0;
    case 'k': o->keep = true; return 0;
    case OPT_SUPERVISE:
        if (o->supervise < RG_SUPERVISE_HYBRID)
            o->supervise = RG_SUPERVISE_HYBRID;
        return 0;
    case OPT_STRICT: o->supervise = RG_SUPERVISE_STRICT; return 0;
    case 'h': fputs(run_usage, stdout); exit(0);
    default: return -1;
    }
}

int rg_run_parse(int argc, char **argv, struct rg_run_opts *o)
{
    static const struct option longs[] = {
        {"root", required_argument, NULL, 'r'},
        {"mode", required_argument, NULL, 'm'},
        {"log", required_argument, NULL, 'l'},
        {"capacity", required_argument, NULL, OPT_CAPACITY},
        {"ignore", required_argument, NULL, 'i'},
        {"no-default-ignores", no_argument, NULL, OPT_NO_DEFAULT_IGNORES},
        {"allow-append", no_argument, NULL, OPT_ALLOW_APPEND},
        {"guard-unlink", no_argument, NULL, OPT_GUARD_UNLINK},
        {"no-journal", no_argument, NULL, OPT_NO_JOURNAL},
        {"journal-max-file", required_argument, NULL, OPT_JOURNAL_MAX_FILE},
        {"read-ttl", required_argument, NULL, OPT_READ_TTL},
        {"scan-files", required_argument, NULL, OPT_SCAN_FILES},
        {"scan-window", required_argument, NULL, OPT_SCAN_WINDOW},
        {"supervise", no_argument, NULL, OPT_SUPERVISE},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"help", no_argument, NULL, 'h'},
        {"session", required_argument, NULL, 's'},
        {"keep", no_argument, NULL, 'k'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    o->s = (struct rg_settings){.mode = RG_MODE_ENFORCE,
                                .capacity = RG_DEFAULT_CAPACITY,
                                .roots = o->roots,
                                .scan_files = RG_DEFAULT_SCAN_FILES,
                                .scan_window_ns = RG_DEFAULT_SCAN_WINDOW_NS};
    const char *env_log = getenv(RG_ENV_LOG);
    if (env_log && *env_log && rg_run_set_log(o, env_log, RG_ENV_LOG) < 0)
        return -1;
    o->given[0] = '\0';
    while ((ch = rg_getopt(argc, argv, "+r:m:l:i:hs:k", longs)) != -1) {
        note_given(o, longs, ch);
        if (apply(o, ch) < 0) {
            if (ch == '?' || ch == ':')
                fprintf(stderr, "Try 'readguard %s --help'.\n", argv[0]);
            return -1;
        }
    }
    if (optind >= argc) {
        rg_err("run: no command given\nTry 'readguard run --help'.");
        return -1;
    }
    if (o->s.nroots == 0 && rg_run_add_root(o, NULL) < 0)
        return -1;
    if (rg_run_env_journal_max_file(o) < 0 || rg_run_pack_ignores(o) < 0)
        return -1;
    return optind;
}

const struct rg_settings *rg_run_settings(int argc, char **argv, const char **session,
                                          const char **given)
{
    /* run's parser wants a command; env has none, so lend it one. Static:
     * the settings returned point into opts (281 KiB), asked once a command. */
    static char *args[256];
    static struct rg_run_opts opts;
    if (argc < 1 || argc > 250) {
        rg_err("too many arguments");
        return NULL;
    }
    memcpy(args, argv, (size_t)argc * sizeof *args);
    args[argc] = "--";
    args[argc + 1] = ":";
    int first = rg_run_parse(argc + 2, args, &opts);
    if (first < 0)
        return NULL;
    if (opts.supervise) {
        /* The filter must be installed by the process that execs the
         * command; a shell that is already running cannot be given one. */
        const char *opt = opts.supervise == RG_SUPERVISE_STRICT ? "--strict" : "--supervise";
        rg_err("%s needs a command: use 'readguard run %s -- CMD'", opt, opt);
        return NULL;
    }
    if (first != argc + 1) {
        rg_err("%s: unexpected argument '%s'\nTry 'readguard %s --help'.", argv[0], args[first],
               argv[0]);
        return NULL;
    }
    *session = opts.session;
    if (given)
        *given = opts.given;
    return &opts.s;
}
