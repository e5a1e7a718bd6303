/* readguard run's options: the settings of a new session, parsed once for
 * run and lent to env and hook, which create sessions the same way. */
#include "cli/launch/run_opts.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launch/supervise.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "core/text.h"
#include "os/gitroot.h"
#include "os/logfile.h"
#include "os/session.h"
static const char run_usage[] =
    "Usage: readguard run [OPTION]... [--] COMMAND [ARG]...\n"
    "Run COMMAND in a new session: writes to existing files under the roots are\n"
    "refused (EACCES) unless the session has read them and they have not changed since.\n"
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
    "  -i, --ignore PATTERN do not guard paths matching PATTERN (gitignore syntax,\n"
    "                       relative to each root); repeatable, and wins over the\n"
    "                       defaults and .readguardignore\n"
    "      --no-default-ignores  guard build outputs, VCS internals and /tmp too\n"
    "                       (see readguard(1), IGNORE RULES)\n"
    "      --allow-append   let O_APPEND opens without O_TRUNC through unread files\n"
    "                       (their old bytes kept first; they stay unread)\n"
    "      --guard-unlink   refuse to remove an existing file that is unread or changed\n"
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
    "The session ends, and its table is removed, when every process of the tree\n"
    "has exited.\n";

/* dir is a --root, or NULL for the default, the working directory's git
 * work tree or the directory itself: a user who gave no --root is told of
 * that, not of an option never given. */
static int add_root(struct rg_run_opts *o, const char *dir)
{
    struct stat st;
    size_t i = o->s.nroots;
    if (i >= sizeof o->roots / sizeof *o->roots) {
        rg_err("too many --root options (at most %zu)", i);
        return -1;
    }
    if (!realpath(dir ? dir : ".", o->root_buf[i])) {
        if (dir)
            rg_err("--root '%s': %s", rg_shown(dir), strerror(errno));
        else
            rg_err("the current directory, the default root, cannot be used (%s): "
                   "give --root DIR",
                   strerror(errno));
        return -1;
    }
    if (!dir) {
        char cwd[PATH_MAX];
        memcpy(cwd, o->root_buf[i], strlen(o->root_buf[i]) + 1);
        rg_default_root(cwd, o->root_buf[i], sizeof o->root_buf[i]);
    }
    if (stat(o->root_buf[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
        rg_err("--root '%s': Not a directory", rg_shown(dir ? dir : "."));
        return -1;
    }
    o->roots[o->s.nroots++] = o->root_buf[i];
    return 0;
}

static int set_log(struct rg_run_opts *o, const char *file, const char *opt)
{
    char cwd[PATH_MAX];
    if (!*file || !getcwd(cwd, sizeof cwd) ||
        !rg_path_join(o->log_buf, sizeof o->log_buf, cwd, file)) {
        rg_err("%s '%s': not a usable path", opt, rg_shown(file));
        return -1;
    }
    /* Only readguard's own state directory is made on demand (logfile.h). */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->log_buf);
    *strrchr(dir, '/') = '\0';
    struct stat st;
    const char *why = NULL;
    if (rg_log_in_state_dir(o->log_buf))
        why = NULL;
    else if (stat(dir[0] ? dir : "/", &st) != 0)
        why = errno == ENOENT ? "does not exist" : strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "is not a directory";
    if (why) {
        rg_err("%s '%s': the directory '%s' %s", opt, rg_shown(file), rg_shown(dir), why);
        return -1;
    }
    o->s.log_path = o->log_buf;
    return 0;
}

static int add_ignore(struct rg_run_opts *o, const char *pattern)
{
    if (o->nignores >= RG_RUN_MAX_IGNORES) {
        rg_err("too many --ignore options (at most %d)", RG_RUN_MAX_IGNORES);
        return -1;
    }
    if (!*pattern) {
        rg_err("--ignore: the pattern is empty");
        return -1;
    }
    o->ignores[o->nignores++] = pattern;
    return 0;
}

static int set_read_ttl(struct rg_run_opts *o, const char *secs)
{
    char *end;
    errno = 0;
    double v = strtod(secs, &end);
    /* Up to ten years, so that nanoseconds stay far from overflowing. */
    /* Under a nanosecond it would be stored as 0: "reads never expire". */
    if (end == secs || *end || errno || !(v * 1e9 >= 1) || v > 315360000.0) {
        rg_err("--read-ttl '%s': expected a positive number of seconds, at most 10 years "
               "(315360000)",
               secs);
        return -1;
    }
    o->s.read_ttl_ns = (int64_t)(v * 1e9 + 0.5);
    return 0;
}

static int set_scan_files(struct rg_run_opts *o, const char *n)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(n, &end, 10);
    if (end == n || *end || errno || *n == '-' || v > RG_SCAN_FILES_MAX) {
        rg_err("--scan-files '%s': expected a number of files from 0 to %u", n, RG_SCAN_FILES_MAX);
        return -1;
    }
    o->s.scan_files = (uint32_t)v;
    return 0;
}

static int set_scan_window(struct rg_run_opts *o, const char *secs)
{
    char *end;
    errno = 0;
    double v = strtod(secs, &end);
    if (end == secs || *end || errno || !(v >= 0.001) || v > 3600.0) {
        rg_err("--scan-window '%s': expected a number of seconds from 0.001 to 3600", secs);
        return -1;
    }
    o->s.scan_window_ns = (int64_t)(v * 1e9 + 0.5);
    return 0;
}

/* Packs the ignore rules into the settings, now that the roots are known. */
static int pack_ignores(struct rg_run_opts *o)
{
    char err[PATH_MAX + 128];
    struct rg_ignore_list l = {o->ignore_buf, sizeof o->ignore_buf, 0, 0};
    if (rg_session_ignores(&l, &o->s, o->ignores, o->nignores, err, sizeof err) < 0) {
        rg_err("%s", err);
        return -1;
    }
    o->s.ignores = l.buf;
    o->s.ignores_len = l.len;
    o->s.nignores = l.count;
    return 0;
}

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

/* READGUARD_JOURNAL_MAX_FILE, unless --journal-max-file was given: checked
 * as the option is, since a typo ("100MB") would quietly keep the default. */
static int env_journal_max_file(struct rg_run_opts *o)
{
    const char *v = getenv(RG_ENV_JOURNAL_MAX_FILE);
    if (o->s.journal_max_file || !v || !*v)
        return 0;
    if ((o->s.journal_max_file = rg_size_parse(v)) <= 0) {
        rg_err(RG_ENV_JOURNAL_MAX_FILE " '%s': expected a positive size in bytes, with K, M "
                                       "or G (--no-journal keeps nothing)",
               v);
        return -1;
    }
    return 0;
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
    int mode;
    switch (ch) {
    case 'r': return add_root(o, optarg);
    case 'm':
        if ((mode = rg_mode_parse(optarg)) < 0) {
            rg_err("--mode '%s': expected 'enforce' or 'warn'", optarg);
            return -1;
        }
        o->s.mode = (enum rg_mode)mode;
        return 0;
    case 'l': return set_log(o, optarg, "--log");
    case 'i': return add_ignore(o, optarg);
    case OPT_NO_DEFAULT_IGNORES: o->s.flags |= RG_POLICY_NO_DEFAULT_IGNORES; return 0;
    case OPT_ALLOW_APPEND: o->s.flags |= RG_POLICY_ALLOW_APPEND; return 0;
    case OPT_GUARD_UNLINK: o->s.flags |= RG_POLICY_GUARD_UNLINK; return 0;
    case OPT_NO_JOURNAL: o->s.flags |= RG_POLICY_NO_JOURNAL; return 0;
    case OPT_JOURNAL_MAX_FILE:
        if ((o->s.journal_max_file = rg_size_parse(optarg)) <= 0) {
            rg_err("--journal-max-file '%s': expected a positive size in bytes, with K, "
                   "M or G (--no-journal keeps nothing)",
                   optarg);
            return -1;
        }
        return 0;
    case OPT_READ_TTL: return set_read_ttl(o, optarg);
    case OPT_SCAN_FILES: return set_scan_files(o, optarg);
    case OPT_SCAN_WINDOW: return set_scan_window(o, optarg);
    case OPT_CAPACITY:
        if (!(o->s.capacity = rg_capacity_parse(optarg))) {
            rg_err("--capacity '%s': expected a number of files from %u to %u (k and M "
                   "count thousands and millions)",
                   optarg, RG_MIN_CAPACITY, RG_MAX_CAPACITY);
            return -1;
        }
        return 0;
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
    if (env_log && *env_log && set_log(o, env_log, RG_ENV_LOG) < 0)
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
    if (o->s.nroots == 0 && add_root(o, NULL) < 0)
        return -1;
    if (env_journal_max_file(o) < 0 || pack_ignores(o) < 0)
        return -1;
    return optind;
}

const struct rg_settings *rg_run_settings(int argc, char **argv, const char **session,
                                          const char **given)
{
    /* run's parser wants a command; env has none, so lend it one. */
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
