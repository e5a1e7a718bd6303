/* Choosing a session for the verbs that act on one, and finding the user's
 * session tables. */

#include "cli/pick.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "os/members.h"
#include "os/session.h"
/* EPERM: the pid exists, owned by someone else, so a reused pid. That is
 * rare and errs on the side of keeping the table, which is harmless. */
static bool pid_alive(int32_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

bool rg_session_owner_alive(const struct rg_header *h) { return pid_alive(rg_header_owner(h)); }

bool rg_session_running(const char *path, const struct rg_header *h)
{
    struct stat st;
    return rg_session_owner_alive(h) ||
           (stat(path, &st) == 0 && rg_session_has_members(path, st.st_dev, st.st_ino, false));
}

bool rg_table_name(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || strlen(name + n) != 16)
        return false;
    return strspn(name + n, "0123456789abcdef") == 16;
}

/* Calls fn for each file of the table directories whose name want takes
 * (given the name and this user's "readguard-<uid>-"). */
static void each_table_file(bool (*want)(const char *name, const char *prefix),
                            void (*fn)(const char *path, void *arg), void *arg)
{
    /* READGUARD_DIR, when set, is where this user's sessions go, and the
     * only place to look: a sandbox or a test sees only its own. */
    const char *dir = getenv(RG_ENV_DIR);
    const char *dirs[] = {dir, "/dev/shm", getenv("XDG_RUNTIME_DIR"), "/tmp"};
    size_t ndirs = dir && *dir ? 1 : sizeof dirs / sizeof *dirs;
    struct stat seen[4];
    size_t nseen = 0;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "readguard-%u-", (unsigned)geteuid());
    for (size_t i = 0; i < ndirs; i++) {
        struct stat st;
        if (!dirs[i] || !*dirs[i] || stat(dirs[i], &st) != 0)
            continue;
        bool dup = false; /* $XDG_RUNTIME_DIR may well be $READGUARD_DIR */
        for (size_t j = 0; j < nseen; j++)
            dup |= seen[j].st_dev == st.st_dev && seen[j].st_ino == st.st_ino;
        if (dup)
            continue;
        seen[nseen++] = st;
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            char path[PATH_MAX];
            if (want(e->d_name, prefix) &&
                snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name) < (int)sizeof path)
                fn(path, arg);
        }
        closedir(d);
    }
}

void rg_each_session_file(void (*fn)(const char *path, void *arg), void *arg)
{
    each_table_file(rg_table_name, fn, arg);
}

/* The Claude Code hook names its table by the agent's session
 * (verbs/hook.c), in the same directories. */
static bool hook_table_name(const char *name, const char *prefix)
{
    (void)prefix;
    return strncmp(name, "readguard-claude-", strlen("readguard-claude-")) == 0;
}

struct candidates {
    size_t running, ended;
    char first[PATH_MAX];
    char list[8192];
    size_t len;
};

static void consider(const char *path, void *arg)
{
    struct candidates *c = arg;
    struct rg_table t;
    if (rg_session_attach(path, &t))
        return;
    bool running = rg_session_running(path, t.hdr);
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
        each_table_file(hook_table_name, match_id, &b);
    ref->table = ref->found[0] ? ref->found : NULL;
}

struct running_ids {
    void (*fn)(const char *id, void *arg);
    void *arg;
};

/* The id's are the same in every version of the table, so a session made
 * by another readguard (an upgrade while it ran) is still named. */
bool rg_table_session(const char *path, char id[RG_JOURNAL_ID_MAX], int32_t *owner)
{
    char h[offsetof(struct rg_header, owner_pid) + sizeof(int32_t)];
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
              pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h &&
              memcmp(h + offsetof(struct rg_header, magic), RG_MAGIC, sizeof RG_MAGIC - 1) == 0;
    if (fd >= 0)
        close(fd);
    if (!ok)
        return false;
    int64_t created;
    int32_t creator;
    uint32_t version;
    memcpy(&created, h + offsetof(struct rg_header, created_ns), sizeof created);
    memcpy(&creator, h + offsetof(struct rg_header, creator_pid), sizeof creator);
    memcpy(&version, h + offsetof(struct rg_header, version), sizeof version);
    rg_journal_id(id, created, creator);
    *owner = creator; /* another version's table: its creator was its owner */
    if (version == RG_TABLE_VERSION)
        memcpy(owner, h + offsetof(struct rg_header, owner_pid), sizeof *owner);
    return true;
}

static void running_id(const char *path, void *arg)
{
    struct running_ids *r = arg;
    char id[RG_JOURNAL_ID_MAX];
    int32_t owner;
    struct stat st;
    if (rg_table_session(path, id, &owner) &&
        (pid_alive(owner) ||
         (stat(path, &st) == 0 && rg_session_has_members(path, st.st_dev, st.st_ino, false))))
        r->fn(id, r->arg);
}

/* The path of one /proc/PID/maps line's file, if it is mapped shared and
 * writable (a session table is; libraries and most data files are not),
 * with its device and inode; NULL otherwise. */
static const char *shared_writable(const char *line, dev_t *dev, ino_t *ino)
{
    const char *p = strchr(line, ' ');                                      /* start-end */
    if (!p || strncmp(p + 1, "rw-s ", 5) != 0 || !(p = strchr(p + 6, ' '))) /* offset */
        return NULL;
    char *end;
    unsigned long maj = strtoul(p + 1, &end, 16);
    if (*end != ':')
        return NULL;
    unsigned long min = strtoul(end + 1, &end, 16);
    if (*end != ' ')
        return NULL;
    unsigned long long i = strtoull(end + 1, &end, 10);
    while (*end == ' ')
        end++;
    if (*end != '/' || strstr(end, " (deleted)"))
        return NULL;
    *dev = makedev(maj, min);
    *ino = (ino_t)i;
    return end;
}

struct mapped {
    struct running_ids *r;
    struct stat seen[64]; /* the tables already asked about */
    size_t nseen;
};

/* A table a live process maps: its session is running, wherever the
 * table lives. */
static void mapped_id(struct mapped *m, const char *line)
{
    struct stat st;
    const char *path = shared_writable(line, &st.st_dev, &st.st_ino);
    for (size_t j = 0; path && j < m->nseen; j++)
        if (m->seen[j].st_dev == st.st_dev && m->seen[j].st_ino == st.st_ino)
            return;
    if (!path)
        return;
    if (m->nseen < sizeof m->seen / sizeof *m->seen)
        m->seen[m->nseen++] = st;
    /* Only a regular file is opened to be asked: a device mapped so (a
     * GPU's, a sound card's) may act on an open. */
    struct stat now;
    char id[RG_JOURNAL_ID_MAX];
    int32_t creator;
    if (lstat(path, &now) == 0 && S_ISREG(now.st_mode) && now.st_dev == st.st_dev &&
        now.st_ino == st.st_ino && rg_table_session(path, id, &creator))
        m->r->fn(id, m->r->arg);
}

/* Every process of a session that has made a guarded call maps its table,
 * wherever it lives: a named session's, or one under another
 * READGUARD_DIR, is in none of the directories rg_each_session_file
 * lists. */
static void each_mapped_id(struct running_ids *r)
{
    struct mapped m = {.r = r};
    DIR *d = opendir("/proc");
    struct dirent *e;
    char maps[64], *line = NULL;
    size_t cap = 0;
    while (d && (e = readdir(d))) {
        long pid = strtol(e->d_name, NULL, 10);
        if (pid <= 0 || pid == getpid())
            continue;
        snprintf(maps, sizeof maps, "/proc/%ld/maps", pid);
        FILE *f = fopen(maps, "re");
        while (f && getline(&line, &cap, f) > 0) {
            line[strcspn(line, "\n")] = '\0';
            mapped_id(&m, line);
        }
        if (f)
            fclose(f);
    }
    free(line);
    if (d)
        closedir(d);
}

void rg_each_running_id(void (*fn)(const char *id, void *arg), void *arg)
{
    struct running_ids r = {fn, arg};
    rg_each_session_file(running_id, &r);
    each_mapped_id(&r);
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
    rg_each_session_file(consider, &c);
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

int rg_verb_getopt(struct rg_verb *v, int argc, char **argv)
{
    static struct option longs[32];
    static char shorts[64];
    static const struct option common[] = {
        {"session", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
    };
    if (!longs[0].name) {
        size_t n = 0;
        for (; v->longs && v->longs[n].name && n < 29; n++)
            longs[n] = v->longs[n];
        if (!v->no_session)
            longs[n++] = common[0];
        longs[n++] = common[1];
        snprintf(shorts, sizeof shorts, "%sh%s",
                 v->no_session ? "" : "s:", v->shortopts ? v->shortopts : "");
    }
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
