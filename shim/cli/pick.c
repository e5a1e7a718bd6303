/* Choosing a session for the verbs that act on one. */

#include "cli/pick.h"
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "os/members.h"
#include "os/session.h"

/* An owner in another PID namespace is out of sight, not gone: taken for
 * alive, its session is never pruned or taken over from here, unless
 * that namespace is seen to have no process left. */
bool rg_session_owner_alive(const struct rg_header *h)
{
    if (h->creator_pidns && h->creator_pidns != rg_pidns_self())
        return !rg_pidns_gone(h->creator_pidns);
    return rg_pid_alive(rg_header_owner(h));
}

static bool runs_readguard(int32_t pid)
{
    char exe[64];
    struct stat own, self;
    snprintf(exe, sizeof exe, "/proc/%d/exe", (int)pid);
    return pid > 0 && stat(exe, &own) == 0 && stat("/proc/self/exe", &self) == 0 &&
           own.st_dev == self.st_dev && own.st_ino == self.st_ino;
}

bool rg_session_ends_elsewhere(const char *path, int32_t owner, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    if (rg_hook_table_name(base ? base + 1 : path) && rg_pid_alive(owner))
        snprintf(out, cap, "Claude Code's hooks, pid %d, which ends when Claude Code exits",
                 (int)owner);
    else if (runs_readguard(owner))
        snprintf(out, cap, "'readguard run', pid %d, which ends when its command exits",
                 (int)owner);
    else
        return false;
    return true;
}

bool rg_session_running(const char *path, const struct rg_header *h, struct rg_exec_wait *wait)
{
    struct stat st;
    return rg_session_owner_alive(h) ||
           (stat(path, &st) == 0 &&
            rg_session_has_members(path, st.st_dev, st.st_ino, false, wait));
}

struct candidates {
    size_t running, ended;
    char first[PATH_MAX];
    char list[8192];
    size_t len;
    struct rg_exec_wait wait; /* for all the tables considered */
};

static void consider(const char *path, void *arg)
{
    struct candidates *c = arg;
    struct rg_table t;
    if (rg_session_attach(path, &t))
        return;
    bool running = rg_session_running(path, t.hdr, &c->wait);
    int n = snprintf(c->list + c->len, sizeof c->list - c->len, "\n  %s (%s, pid %d)", path,
                     running ? "running" : "ended", (int)rg_header_owner(t.hdr));
    if (n > 0 && c->len + (size_t)n < sizeof c->list)
        c->len += (size_t)n;
    if (running && c->running++ == 0)
        snprintf(c->first, sizeof c->first, "%s", path);
    c->ended += !running;
    rg_session_detach(&t);
}

static int attach(const char *path, const char *how, struct rg_cli_session *s)
{
    snprintf(s->path, sizeof s->path, "%s", path);
    const char *why = rg_session_attach(path, &s->table);
    if (why) {
        rg_err("session '%s'%s: %s", rg_shown(path), how, why);
        return -1;
    }
    return 0;
}

/* A table that is not there is most often a session that ended (its
 * table goes with it): say where an ended session can still be found. */
static void ended_hint(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 || errno != ENOENT)
        return;
    rg_err("ended sessions: see 'readguard history --session ID' (and diff, undo, log), "
           "with the id that 'readguard history' prints");
}

struct by_id {
    const char *id;
    char *found;
};

/* By the header alone: nothing mapped, and a name that is no table of the
 * user's (a FIFO, another's file) is passed over unopened or unread. */
static void match_id(const char *path, void *arg)
{
    struct by_id *b = arg;
    char id[RG_JOURNAL_ID_MAX];
    int32_t owner;
    if (!b->found[0] && rg_table_session(path, id, &owner) && strcmp(id, b->id) == 0)
        snprintf(b->found, PATH_MAX, "%s", path);
}

void rg_session_resolve(const char *arg, struct rg_session_ref *ref)
{
    memset(ref, 0, sizeof *ref);
    ref->table = arg;
    struct stat st;
    /* A file is what was meant, whatever its name looks like. */
    if (lstat(arg, &st) == 0 || !rg_journal_is_id(arg) || strlen(arg) >= sizeof ref->id)
        return;
    snprintf(ref->id, sizeof ref->id, "%s", arg);
    struct by_id b = {arg, ref->found};
    rg_each_session_file(match_id, &b);
    if (!ref->found[0])
        rg_each_hook_table(match_id, &b);
    ref->table = ref->found[0] ? ref->found : NULL;
}

int rg_pick_session(const char *arg, struct rg_cli_session *s)
{
    /* On failure too the caller holds a defined session: no table mapped. */
    memset(s, 0, sizeof *s);
    if (arg) {
        struct rg_session_ref ref;
        rg_session_resolve(arg, &ref);
        if (!ref.table) {
            rg_err("no table of this user's has session id '%s': the session has ended "
                   "(history, diff, undo and log still take its id: 'readguard history "
                   "--session %s'), or it is a named session (give its table's path)",
                   arg, arg);
            return -1;
        }
        if (attach(ref.table, "", s) == 0)
            return 0;
        ended_hint(ref.table);
        return -1;
    }
    const char *env = getenv(RG_ENV_SESSION);
    if (env && *env)
        return attach(env, " (from READGUARD_SESSION)", s);
    struct candidates c = {0};
    rg_each_table(consider, &c);
    if (c.running == 1)
        return attach(c.first, "", s);
    if (c.running > 1)
        rg_err("%zu sessions are running; choose one with --session PATH or "
               "READGUARD_SESSION:%s",
               c.running, c.list);
    else if (c.ended > 0)
        rg_err("no session is running; ended sessions left behind (name one with --session "
               "PATH, or remove them with 'readguard sessions --prune'):%s",
               c.list);
    else
        rg_err("no session: start one with 'readguard run -- CMD' or "
               "'eval \"$(readguard env)\"', or name one with --session PATH");
    return -1;
}

void rg_drop_session(struct rg_cli_session *s) { rg_session_detach(&s->table); }

/* The verb's own options and the common ones (--session unless it acts on
 * no session, --help), into longs (32) and shorts. */
static void options_of(const struct rg_verb *v, struct option longs[32], char *shorts, size_t cap)
{
    static const struct option common[] = {
        {"session", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
    };
    size_t n = 0;
    for (; v->longs && v->longs[n].name && n < 29; n++)
        longs[n] = v->longs[n];
    if (!v->no_session)
        longs[n++] = common[0];
    longs[n++] = common[1];
    longs[n] = (struct option){NULL, 0, NULL, 0};
    snprintf(shorts, cap, "%sh%s", v->no_session ? "" : "s:", v->shortopts ? v->shortopts : "");
}

/* The options are built anew at each call, on the stack: getopt keeps no
 * pointer to them between calls (its place is in argv), and a second verb
 * parsed in one process gets its own, not the first one's. */
int rg_verb_getopt(struct rg_verb *v, int argc, char **argv)
{
    struct option longs[32];
    char shorts[64];
    options_of(v, longs, shorts, sizeof shorts);
    for (;;) {
        int ch = rg_getopt(argc, argv, shorts, longs);
        if (ch == 's') {
            v->session = optarg;
            continue;
        }
        if (ch == 'h') {
            fputs(v->usage, stdout);
            exit(RG_EXIT_OK);
        }
        return ch;
    }
}

int rg_verb_usage_error(const struct rg_verb *v)
{
    fprintf(stderr, "Try 'readguard %s --help'.\n", v->name);
    return RG_EXIT_TROUBLE;
}

int rg_verb_no_operands(const struct rg_verb *v, int argc, char **argv)
{
    if (optind >= argc)
        return RG_EXIT_OK;
    fprintf(stderr, "readguard: %s: unexpected argument '%s'\n", v->name, argv[optind]);
    return rg_verb_usage_error(v);
}

int rg_verb_each_file(const struct rg_verb *v, int argc, char **argv, void *arg,
                      int (*fn)(struct rg_table *t, const char *path, void *arg))
{
    if (optind >= argc) {
        fprintf(stderr, "readguard: %s: no file given\n", v->name);
        return rg_verb_usage_error(v);
    }
    struct rg_cli_session s;
    if (rg_pick_session(v->session, &s) < 0)
        return RG_EXIT_TROUBLE;
    int rc = RG_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        int r = fn(&s.table, argv[i], arg);
        if (r > rc)
            rc = r;
    }
    rg_drop_session(&s);
    return rc;
}
