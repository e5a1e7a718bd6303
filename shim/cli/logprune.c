#include "cli/logprune.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/journal/prune.h"
#include "cli/pick.h"
#include "core/settings.h"
#include "os/clock.h"
#include "os/logfile.h"
#include "os/session.h"
#define LOGS_EVERY_NS (60LL * 60 * 1000000000)
#define LOGS_STAMP ".pruned-logs"
/* Beyond this, a file in /proc is not read further: a process's maps run
 * to a few MiB at most. */
#define PROC_FILE_MAX (64 << 20)

/* Table names, without their directory. */
struct names {
    char (*v)[64];
    size_t n;
};

static bool names_has(const struct names *l, const char *name, size_t len)
{
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->v[i]) == len && memcmp(l->v[i], name, len) == 0)
            return true;
    return false;
}

static void names_add(struct names *l, const char *name, size_t len)
{
    if (len >= sizeof *l->v || names_has(l, name, len))
        return;
    void *more = realloc(l->v, (l->n + 1) * sizeof *l->v);
    if (!more)
        abort();
    l->v = more;
    memcpy(l->v[l->n], name, len);
    l->v[l->n++][len] = '\0';
}

/* The tables the sessions verb sees, and which of them are running. A file
 * with a table's name that is not a usable table may be one being born:
 * its log is kept. */
struct tables {
    struct names seen, live;
    struct rg_exec_wait wait; /* for all the tables */
};

static void note_table(const char *path, void *arg)
{
    struct tables *t = arg;
    const char *name = strrchr(path, '/') + 1;
    struct rg_table tb;
    bool running = true;
    if (!rg_session_attach(path, &tb)) {
        running = rg_session_running(path, tb.hdr, &t->wait);
        rg_session_detach(&tb);
    }
    names_add(&t->seen, name, strlen(name));
    if (running)
        names_add(&t->live, name, strlen(name));
}

/* Is name one of this user's tables, whose default log (name.log) is
 * pruned: a session's (readguard-UID- and 16 hex digits) or the Claude Code
 * hook's (readguard-claude- and the agent's session id, tables.h)? */
static bool table_named(const char *name, const char *prefix)
{
    return rg_table_name(name, prefix) || rg_hook_table_name(name);
}

/* What a table's name is made of, after "readguard-". */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

/* Adds each table name of this user's that text names as a file: "/", the
 * name and no more. A process of a session maps its table (maps) or was
 * started with READGUARD_SESSION naming it (environ). */
static void names_in(const char *text, size_t len, const char *prefix, struct names *live)
{
    static const char needle[] = "/readguard-";
    const size_t nn = sizeof needle - 1;
    char name[64];
    if (!len)
        return;
    const char *p = text, *end = text + len;
    while ((p = memmem(p, (size_t)(end - p), needle, nn))) {
        const char *q = p + nn;
        while (q < end && q - p < (ptrdiff_t)sizeof name && *q && strchr(NAME_CHARS, *q))
            q++;
        size_t n = (size_t)(q - p) - 1;
        if (n < sizeof name) {
            memcpy(name, p + 1, n);
            name[n] = '\0';
            if (table_named(name, prefix))
                names_add(live, name, n);
        }
        p += nn;
    }
}

/* Reads /proc/PID/what whole into *buf (grown as needed). Its length, or 0. */
static size_t slurp(int procfd, const char *pid, const char *what, char **buf, size_t *cap)
{
    char rel[64];
    snprintf(rel, sizeof rel, "%s/%s", pid, what);
    int fd = openat(procfd, rel, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t len = 0;
    ssize_t got;
    for (;;) {
        if (len == *cap) {
            if (*cap >= PROC_FILE_MAX)
                break;
            char *more = realloc(*buf, *cap ? *cap * 2 : 65536);
            if (!more)
                abort();
            *buf = more;
            *cap = *cap ? *cap * 2 : 65536;
        }
        got = read(fd, *buf + len, *cap - len);
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    return len;
}

/* Adds the tables that some process still uses, wherever they are: a table
 * in a directory the sessions verb does not look in ($READGUARD_DIR was
 * set otherwise), or one removed under a tree that outlived its launcher.
 * False when /proc cannot be read: then no one can tell. */
static bool names_in_proc(const char *prefix, struct names *live)
{
    int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = procfd >= 0 ? fdopendir(procfd) : NULL;
    if (!d) {
        if (procfd >= 0)
            close(procfd);
        return false;
    }
    char *buf = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strspn(e->d_name, "0123456789") != strlen(e->d_name))
            continue;
        /* The length first: slurp may move buf. */
        size_t len = slurp(procfd, e->d_name, "maps", &buf, &cap);
        names_in(buf, len, prefix, live);
        len = slurp(procfd, e->d_name, "environ", &buf, &cap);
        names_in(buf, len, prefix, live);
    }
    free(buf);
    closedir(d);
    return true;
}

/* Is name a default log of this user's sessions (a table's name and
 * ".log"), a regular file of theirs, unchanged since before? Its table's
 * name goes to table. */
static bool old_log(int dfd, const char *name, const char *prefix, int64_t before, char table[64])
{
    size_t n = strlen(name);
    struct stat st;
    if (n <= 4 || n - 4 >= 64 || strcmp(name + n - 4, ".log") != 0)
        return false;
    memcpy(table, name, n - 4);
    table[n - 4] = '\0';
    return table_named(table, prefix) && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
           (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec < before;
}

static void prune_in(int dfd, const char *dir, int64_t before, rg_log_pruned_fn *report, void *arg)
{
    char prefix[32], table[64], log[80], path[PATH_MAX + 80];
    snprintf(prefix, sizeof prefix, "readguard-%u-", (unsigned)geteuid());
    struct names old = {0};
    struct tables t = {{0}, {0}, {0}};
    int dup = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
    DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (old_log(dfd, e->d_name, prefix, before, table))
            names_add(&old, table, strlen(table));
    if (d)
        closedir(d);
    else if (dup >= 0)
        close(dup);
    if (old.n)
        rg_each_table(note_table, &t);
    bool unseen = false;
    for (size_t i = 0; i < old.n; i++)
        unseen |= !names_has(&t.seen, old.v[i], strlen(old.v[i]));
    bool looked = unseen && names_in_proc(prefix, &t.live);
    for (size_t i = 0; i < old.n; i++) {
        const char *name = old.v[i];
        if (names_has(&t.live, name, strlen(name)) ||
            (unseen && !looked && !names_has(&t.seen, name, strlen(name))))
            continue;
        snprintf(log, sizeof log, "%s.log", name);
        /* Looked at again: it may have been written to while we looked. */
        if (!old_log(dfd, log, prefix, before, table))
            continue;
        int r = unlinkat(dfd, log, 0) == 0 ? 0 : errno;
        if (report && r != ENOENT) {
            snprintf(path, sizeof path, "%s/%s", dir, log);
            report(path, r, arg);
        }
    }
    free(old.v);
    free(t.seen.v);
    free(t.live.v);
}

void rg_logs_prune(bool now_please, rg_log_pruned_fn *report, void *arg)
{
    char dir[PATH_MAX];
    if (rg_state_dir(dir, sizeof dir) < 0)
        return;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return;
    int64_t now = rg_now_ns(), days = rg_prune_days();
    struct stat st;
    bool lately =
        fstatat(dfd, LOGS_STAMP, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        now - ((int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec) < LOGS_EVERY_NS;
    if (now_please || !lately) {
        if (days < now / RG_PRUNE_DAY_NS) /* else nothing is that old */
            prune_in(dfd, dir, now - days * RG_PRUNE_DAY_NS, report, arg);
        /* O_NONBLOCK: a FIFO planted as the stamp must not hold the run's
         * end waiting for a reader. */
        int fd =
            openat(dfd, LOGS_STAMP, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
        if (fd >= 0) {
            futimens(fd, NULL);
            close(fd);
        }
    }
    close(dfd);
}
