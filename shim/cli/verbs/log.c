/* readguard log: the session's refusals, warnings and marks. */
#include "cli/verbs.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/store.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/jsonl.h"
#include "core/text.h"
#include "os/logfile.h"
#include "os/session.h"
static const char usage[] =
    "Usage: readguard log [--session S] [--follow] [--json]\n"
    "Print the session's log: one line per refusal, warning (warn mode) or mark,\n"
    "with the time, program, pid, decision, path and reason.\n"
    "\n" RG_SESSION_HELP ";\n"
    "                       an ended session's lines are found by its id in the\n"
    "                       logs in the state directory (default: $READGUARD_SESSION,\n"
    "                       else the one running session)\n"
    "  -f, --follow         keep printing new lines as they come, until the session\n"
    "                       ends or readguard is interrupted\n"
    "  -j, --json           print the log's JSON lines as they are\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0, or 2 if there is no usable session or its log cannot be read.\n"
    "A session that has refused nothing has no log yet, and prints nothing.\n";

static void explain(const struct rg_jobject *o, char *out, size_t cap)
{
    const char *reason = rg_jsonl_get(o, "reason");
    const char *rm = rg_jsonl_get(o, "recorded_mtime"), *cm = rg_jsonl_get(o, "current_mtime");
    const char *rs = rg_jsonl_get(o, "recorded_size"), *cs = rg_jsonl_get(o, "current_size");
    if (!reason)
        reason = "?";
    if (strcmp(reason, "unread") == 0)
        snprintf(out, cap, "not read in this session");
    else if (strcmp(reason, "replaced") == 0)
        snprintf(out, cap, "replaced by another file since it was read");
    else if (strcmp(reason, "changed") == 0)
        snprintf(out, cap, "changed since it was read (mtime %s -> %s, size %s -> %s)",
                 rm ? rm : "?", cm ? cm : "?", rs ? rs : "?", cs ? cs : "?");
    else if (strcmp(reason, "table-full") == 0)
        snprintf(out, cap, "the session table was full");
    else if (strcmp(reason, "no-table") == 0)
        snprintf(out, cap, "the session table was unusable");
    else if (strcmp(reason, "marked") == 0)
        snprintf(out, cap, "marked as read by 'readguard mark'");
    else
        snprintf(out, cap, "%s", reason);
}

/* only: a log named by session id shows only the lines that hold this
 * "session":"ID" member (NULL: every line). */
static void print_line(const char *line, bool as_json, const char *only)
{
    if (only && !strstr(line, only))
        return; /* its quotes are unescaped, so no path value can hold it */
    struct rg_jobject o;
    if (as_json || !rg_jsonl_parse(line, &o)) {
        puts(line); /* a line we cannot parse is still shown, as it is */
        return;
    }
    const char *d = rg_jsonl_get(&o, "decision");
    const char *shown = !d                         ? "?"
                        : strcmp(d, "refuse") == 0 ? "refused"
                        : strcmp(d, "warn") == 0   ? "warned"
                        : strcmp(d, "mark") == 0   ? "marked"
                                                   : d;
    const char *t = rg_jsonl_get(&o, "time"), *prog = rg_jsonl_get(&o, "prog");
    const char *pid = rg_jsonl_get(&o, "pid"), *op = rg_jsonl_get(&o, "op");
    const char *path = rg_jsonl_get(&o, "path");
    char why[512];
    explain(&o, why, sizeof why);
    if (d && strcmp(d, "mark") == 0)
        op = NULL; /* "marked '/p'", not "marked mark '/p'" */
    /* One line per entry, as the refusal on stderr was. */
    char name[4 * PATH_MAX], who[4 * 64];
    rg_line_escape(name, sizeof name, path ? path : "?");
    rg_line_escape(who, sizeof who, prog ? prog : "?");
    printf("%s %s[%s] %s%s%s '%s': %s\n", t ? t : "?", who, pid ? pid : "?", shown, op ? " " : "",
           op ? op : "", name, why);
}

/* Prints the complete lines that buf[0..*len) holds, keeping a partial
 * last line for later. */
static void drain(char *buf, size_t *len, bool as_json, const char *only)
{
    char *start = buf, *nl;
    while ((nl = memchr(start, '\n', *len - (size_t)(start - buf)))) {
        *nl = '\0';
        print_line(start, as_json, only);
        start = nl + 1;
    }
    *len -= (size_t)(start - buf);
    memmove(buf, start, *len);
}

static int show(const char *log, const char *table, bool follow, bool as_json, const char *only)
{
    static char buf[65536]; /* static for its size: each call starts it empty (len) */
    size_t len = 0;
    off_t off = 0;
    for (;;) {
        int fd = open(log, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && errno != ENOENT) {
            rg_err("log: cannot read '%s': %s", rg_shown(log), strerror(errno));
            return RG_EXIT_TROUBLE;
        }
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size < off)
            off = 0, len = 0; /* truncated or replaced: start again */
        ssize_t n = 0;
        while (fd >= 0 && (n = pread(fd, buf + len, sizeof buf - len - 1, off)) > 0) {
            off += n;
            len += (size_t)n;
            drain(buf, &len, as_json, only);
            if (len == sizeof buf - 1) { /* a line longer than the buffer */
                buf[len] = '\0';
                print_line(buf, as_json, only);
                len = 0;
            }
        }
        if (n < 0) {
            rg_err("log: cannot read '%s': %s", rg_shown(log), strerror(errno));
            close(fd);
            return RG_EXIT_TROUBLE;
        }
        if (fd >= 0)
            close(fd);
        fflush(stdout);
        if (!follow || access(table, F_OK) != 0)
            return RG_EXIT_OK;
        nanosleep(&(struct timespec){0, 200000000}, NULL);
    }
}

/* The log that holds session id's lines: a default log lives in the state
 * directory, beside the journal, and each line names its session. */
static bool find_log(const char *tag, const char *dir, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".log") != 0 ||
            snprintf(out, cap, "%s/%s", dir, e->d_name) >= (int)cap)
            continue;
        FILE *f = fopen(out, "re");
        char *line = NULL;
        size_t lcap = 0;
        while (f && !found && getline(&line, &lcap, f) > 0)
            found = strstr(line, tag) != NULL;
        free(line);
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

static int show_id(const char *id, bool as_json)
{
    char journal[PATH_MAX], dir[PATH_MAX], log[PATH_MAX + 256], tag[RG_JOURNAL_ID_MAX + 16];
    rg_session_default_journal(journal, sizeof journal);
    if (!journal[0] || rg_state_dir(dir, sizeof dir) < 0) {
        rg_err("log: no state directory: neither XDG_STATE_HOME nor HOME is an absolute path");
        return RG_EXIT_TROUBLE;
    }
    snprintf(tag, sizeof tag, "\"session\":\"%s\"", id);
    if (!find_log(tag, dir, log, sizeof log)) {
        struct stat st;
        snprintf(log, sizeof log, "%s/" RG_JOURNAL_SESSIONS "/%s.jsonl", journal, id);
        if (stat(log, &st) != 0) {
            rg_err("log: no session '%s': it is neither a table nor an id in the journal or the "
                   "logs in '%s'",
                   id, rg_shown(dir));
            return RG_EXIT_TROUBLE;
        }
        rg_err("log: session %s has no line in the logs in '%s': it refused nothing, its "
               "log was pruned (unchanged for READGUARD_JOURNAL_DAYS days), or its log was "
               "given with --log (read that file)",
               id, rg_shown(dir));
        return RG_EXIT_OK;
    }
    return show(log, "", false, as_json, tag);
}

/* The id of the session that logged last in the default logs: after a
 * 'run' that only refused, history knows no id to give. */
static bool newest_id(char *id, size_t cap)
{
    char dir[PATH_MAX], path[PATH_MAX + 256], best[PATH_MAX + 256] = "";
    if (rg_state_dir(dir, sizeof dir) < 0)
        return false;
    DIR *d = opendir(dir);
    struct dirent *e;
    struct timespec newest = {0, 0};
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        struct stat st;
        if (n < 5 || strcmp(e->d_name + n - 4, ".log") != 0 ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &st) != 0 || st.st_size == 0)
            continue;
        if (st.st_mtim.tv_sec > newest.tv_sec ||
            (st.st_mtim.tv_sec == newest.tv_sec && st.st_mtim.tv_nsec > newest.tv_nsec)) {
            newest = st.st_mtim;
            snprintf(best, sizeof best, "%s", path);
        }
    }
    if (d)
        closedir(d);
    FILE *f = best[0] ? fopen(best, "re") : NULL;
    char *line = NULL;
    size_t lcap = 0;
    id[0] = '\0';
    ssize_t n;
    while (f && (n = getline(&line, &lcap, f)) > 0) {
        struct rg_jobject o;
        if (line[n - 1] == '\n')
            line[n - 1] = '\0';
        const char *sid = rg_jsonl_parse(line, &o) ? rg_jsonl_get(&o, "session") : NULL;
        if (sid)
            snprintf(id, cap, "%s", sid);
    }
    free(line);
    if (f)
        fclose(f);
    return id[0] != '\0';
}

/* Where no default log has a line, --session ID would find none either:
 * says that, not to ask for it. */
static void say_none_logged(void)
{
    char dir[PATH_MAX];
    if (rg_state_dir(dir, sizeof dir) < 0)
        snprintf(dir, sizeof dir, "%s", "$XDG_STATE_HOME/readguard");
    rg_err("log: no session has logged anything in '%s' yet (a session run with --log "
           "FILE logs to FILE)",
           rg_shown(dir));
}

int rg_cmd_log(int argc, char **argv)
{
    static const struct option longs[] = {
        {"follow", no_argument, NULL, 'f'}, {"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    struct rg_verb v = {"log", usage, "fj", longs, NULL, false};
    bool follow = false, as_json = false;
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch == 'f')
            follow = true;
        else if (ch == 'j')
            as_json = true;
        else
            return rg_verb_usage_error(&v);
    }
    if (rg_verb_no_operands(&v, argc, argv) != RG_EXIT_OK)
        return RG_EXIT_TROUBLE;
    struct rg_session_ref ref = {0};
    if (v.session) {
        rg_session_resolve(v.session, &ref);
        if (!ref.table) { /* an id whose table is gone: the session ended */
            if (follow)
                rg_err("log: --follow needs the session's table; session %s's lines so far:",
                       ref.id);
            return show_id(ref.id, as_json);
        }
    }
    struct rg_cli_session s;
    if (rg_pick_session(ref.table, &s) < 0) {
        char id[RG_JOURNAL_ID_MAX];
        if (v.session)
            return RG_EXIT_TROUBLE;
        if (newest_id(id, sizeof id)) /* most often, it has ended: its id still finds it */
            rg_err("log: the last session to log anything was %s: 'readguard log --session %s'", id,
                   id);
        else
            say_none_logged();
        return RG_EXIT_TROUBLE;
    }
    char log[RG_LOG_PATH_MAX];
    snprintf(log, sizeof log, "%s", s.table.hdr->log_path);
    rg_drop_session(&s);
    if (!log[0])
        return RG_EXIT_OK;
    return show(log, s.path, follow, as_json, NULL);
}
