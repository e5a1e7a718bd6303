#include "cli/cli.h"
#include "cli/shown.h"
#include <bsd/stdlib.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/verbs.h"
#include "core/report.h"
#include "os/clock.h"
#include "os/errname.h"
#include "os/logfile.h"
#include "os/sys.h"
#ifndef RG_VERSION
#define RG_VERSION "0.1.0"
#endif

static const char usage[] =
    "Usage: readguard run [OPTION]... [--] CMD [ARG]...\n"
    "       readguard COMMAND [OPTION]... [ARG]...\n"
    "       readguard --help | --version\n"
    "\n"
    "Refuse writes to files a process tree has not read, or that changed since it\n"
    "read them.\n"
    "\n"
    "Commands:\n"
    "  run [OPTION]... [--] CMD [ARG]...\n"
    "                        run CMD in a new session (or a named one: --session)\n"
    "  env [OPTION]...       start a session for this shell: eval \"$(readguard env)\"\n"
    "  end                   end that session: eval \"$(readguard end)\"\n"
    "  status [--json] [--files]\n"
    "                        settings, counters and tracked files of a session\n"
    "  reset                 forget every read (after an agent's context compaction)\n"
    "  forget FILE...        forget that these files were read\n"
    "  mark FILE...          record files as read without reading them (logged)\n"
    "  check [-q] FILE...    would a write be allowed now? (exit 0 yes, 1 no)\n"
    "  log [--follow] [--json]\n"
    "                        the session's refusals, warnings and marks\n"
    "  sessions [--prune] [--json]\n"
    "                        this user's sessions, and whether they are running\n"
    "  doctor [CMD]          can CMD be guarded by the preload?\n"
    "  hook claude-code EVENT\n"
    "                        Claude Code's hooks (its settings.json runs them)\n"
    "  history [--all] [--json] [FILE|DIR]...\n"
    "                        the versions kept before sessions changed files\n"
    "  diff FILE...          what changed since the version undo would restore\n"
    "  undo [--force] FILE...\n"
    "                        restore FILE as before the last session changed it\n"
    "  undo [--force] --all  restore every file the last session changed here\n"
    "\n"
    "Verbs that act on a session take --session S, a table's path or a session's\n"
    "id; without it they use $READGUARD_SESSION, else the one running session of\n"
    "this user. run and env take --session PATH, a table to join or create.\n"
    "Run 'readguard COMMAND --help' for the options of each command, and see\n"
    "readguard(1).\n";

void rg_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", getprogname());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int rg_getopt(int argc, char **argv, const char *shorts, const struct option *longs)
{
    char prog[64];
    char *verb = argv[0];
    snprintf(prog, sizeof prog, "%s: %s", getprogname(), verb);
    argv[0] = prog;
    int idx = -1;
    int ch = getopt_long(argc, argv, shorts, longs, &idx);
    argv[0] = verb;
    /* getopt hands "--" to an option as its value: "run --session -- CMD"
     * made a session named "--" and ran CMD. The value is missing; the
     * "--" was meant to end the options. */
    if (ch != -1 && ch != '?' && optarg && strcmp(optarg, "--") == 0) {
        if (idx >= 0)
            fprintf(stderr,
                    "%s: option '--%s' requires an argument, not the '--' that ends "
                    "the options\n",
                    prog, longs[idx].name);
        else
            fprintf(stderr,
                    "%s: option '-%c' requires an argument, not the '--' that ends "
                    "the options\n",
                    prog, ch);
        return '?';
    }
    return ch;
}

void rg_cli_log(const char *log_path, const struct rg_log_line *l)
{
    char line[4096];
    size_t n = rg_log_format(line, sizeof line, l);
    int fd = n ? rg_log_open(log_path) : -1;
    if (fd < 0 || write(fd, line, n) != (ssize_t)n)
        rg_err("warning: cannot write the log '%s'", rg_shown(log_path));
    if (fd >= 0)
        rg_sys_close(fd);
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
} verbs[] = {
    {"run", rg_cmd_run},           {"env", rg_cmd_env},       {"end", rg_cmd_end},
    {"status", rg_cmd_status},     {"reset", rg_cmd_reset},   {"forget", rg_cmd_forget},
    {"mark", rg_cmd_mark},         {"check", rg_cmd_check},   {"log", rg_cmd_log},
    {"sessions", rg_cmd_sessions}, {"doctor", rg_cmd_doctor}, {"hook", rg_cmd_hook},
    {"history", rg_cmd_history},   {"undo", rg_cmd_undo},     {"diff", rg_cmd_diff},
};

static bool asks_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0;
}

/* readguard help VERB, as git help VERB: the verb's own --help. The
 * summary it printed instead, exit 0, read as if VERB had no help of its
 * own, and as if a misspelt VERB were one. help's own help is the summary,
 * as it was before VERB was looked up: no unknown command. */
static int help_with(const char *verb, const char *extra)
{
    if (!extra && asks_help(verb)) {
        fputs(usage, stdout);
        return 0;
    }
    if (extra) {
        rg_err("help: unexpected argument '%s'\nTry 'readguard --help'.", extra);
        return RG_EXIT_TROUBLE;
    }
    char *args[] = {(char *)verb, "--help", NULL};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (strcmp(verb, verbs[i].name) == 0)
            return verbs[i].fn(2, args);
    rg_err("help: unknown command '%s'\nTry 'readguard --help'.", verb);
    return RG_EXIT_TROUBLE;
}

int main(int argc, char **argv)
{
    setprogname(argv[0]);
    /* The library finds libc's clock_gettime by a walk that needs the
     * start-up vector its constructor notes (os/clock.c); here that walk
     * found nothing, and every reading was a system call: 12,500 in the
     * supervisor's records of one make -j2. readguard may link it. */
    rg_clock_fn_ = clock_gettime;
    rg_errname_fn_ = strerrorname_np; /* the same walk: the supervisor's messages name errors */
    /* Only run's own failures are 125 (env(1)'s convention, for the
     * command's status to pass through); a command line readguard cannot
     * parse is bad usage, 2, as for every other verb. */
    if (argc < 2) {
        fputs(usage, stderr);
        return RG_EXIT_TROUBLE;
    }
    const char *verb = argv[1];
    if (strcmp(verb, "help") == 0 && argc > 2)
        return help_with(argv[2], argc > 3 ? argv[3] : NULL);
    if (asks_help(verb)) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(verb, "--version") == 0) {
        if (argc > 2) { /* as every verb rejects what it would ignore */
            rg_err("--version: unexpected argument '%s'\nTry 'readguard --help'.", argv[2]);
            return RG_EXIT_TROUBLE;
        }
        printf("readguard %s\n", RG_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (strcmp(verb, verbs[i].name) == 0)
            return verbs[i].fn(argc - 1, argv + 1);
    rg_err("unknown %s '%s'\nTry 'readguard --help'.", verb[0] == '-' ? "option" : "command", verb);
    return RG_EXIT_TROUBLE;
}
