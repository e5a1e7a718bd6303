#include "cli/journal/prune.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/live.h"
#include "cli/journal/objects.h"
#include "cli/journal/store.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/text.h"
#include "os/clock.h"
/* Sessions older than READGUARD_JOURNAL_DAYS (default 30) are dropped, then
 * the oldest others until the journal fits in READGUARD_JOURNAL_MAX (default
 * 1G); the most recent session, and any whose table is still there
 * (live.h), is always kept (a running agent's may be asked to undo what
 * it removed a minute ago, however long ago it started). An object goes when no kept
 * session names it, once it is older than a grace period: a running
 * session may have linked it and not yet appended its record. An object's
 * age is when it was kept (objects.c). A content object's is its mtime: a
 * copy's making, or a claim's touch (guard/journal/copy.c). A linked
 * name's is its ctime: a file or symbolic link kept by a link has the
 * mtime of what it was, which may be years old, and a settled one is a
 * symlink made at the settle. A content name a settle gives by a link
 * (the journal's was the inode's only name) keeps that old mtime, as
 * settle.c tells a write by it and so sets none: such an object looks old
 * at once, which is safe as a session names it from the moment it has
 * its content name (the settle holds the lock a prune takes until its
 * rename). */
#define PRUNE_GRACE_NS (10LL * 60 * 1000000000)
#define PRUNE_EVERY_NS (60LL * 60 * 1000000000)
#define PRUNE_DEFAULT_MAX (1LL << 30)
#define PRUNE_DEFAULT_DAYS 30

struct sess {
    char *id;
    size_t from, to; /* its records */
    int64_t start_ns, bytes;
    bool drop, running; /* running: its table is still there (live.h) */
};

/* Marks the session named id, if the journal holds it, as running. */
struct marking {
    struct sess *s;
    size_t n;
};

static void mark_running(const char *id, void *arg)
{
    struct marking *m = arg;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->s[i].id, id) == 0)
            m->s[i].running = true;
}

/* A value that is no size ("500MB", "1g") is said, not silently taken
 * for 1G: the user asked for a bound, and would otherwise never learn
 * that the journal keeps more than that. */
static int64_t max_bytes(void)
{
    const char *v = getenv(RG_ENV_JOURNAL_MAX);
    int64_t n = v && *v ? rg_size_parse(v) : -1;
    /* Process-wide: asked at a run's start and its prune both, said once. */
    static bool told;
    if (v && *v && n <= 0 && !told) {
        told = true;
        rg_err(RG_ENV_JOURNAL_MAX " '%s': expected a positive size in bytes, with K, M or G; "
                                  "the journal is pruned to the default, 1G",
               rg_shown(v));
    }
    return n > 0 ? n : PRUNE_DEFAULT_MAX;
}

/* Days past what nanoseconds in an int64_t hold (292 years) mean forever:
 * taken as given, the limit would wrap negative, and every session would
 * count as older than it (a user asking to keep all would lose all). A
 * value strtoll reads only the start of ("1e6") is no number of days. */
int64_t rg_prune_days(void)
{
    const char *v = getenv(RG_ENV_JOURNAL_DAYS);
    char *end = NULL;
    errno = 0;
    long long n = v ? strtoll(v, &end, 10) : 0;
    /* Process-wide: asked by the journal's prune and the logs' both, said once. */
    static bool told;
    if (v && *v && (end == v || *end || n <= 0) && !told) {
        told = true; /* as for READGUARD_JOURNAL_MAX: said, not silently 30 */
        rg_err(RG_ENV_JOURNAL_DAYS " '%s': expected a positive whole number of days; the "
                                   "journal and the logs are pruned to the default, 30",
               rg_shown(v));
    }
    if (!v || end == v || *end || n <= 0)
        return PRUNE_DEFAULT_DAYS;
    return errno == ERANGE || n > INT64_MAX / RG_PRUNE_DAY_NS ? INT64_MAX / RG_PRUNE_DAY_NS : n;
}

/* Removes the content object at p, unnamed by any kept session and old when
 * looked at, unless a session claimed it since (guard/journal/copy.c): a claim
 * touches its mtime, then checks it is still at p. So it is first moved
 * aside, out of any later claim's reach, and judged again by the mtime of
 * what was moved: one claimed meanwhile goes back (or, where a new copy
 * took its name, is dropped: the same bytes). */
static void remove_object(const char *objects, const char *p, const char *name, int64_t now)
{
    char aside[PATH_MAX + 300];
    struct stat st;
    snprintf(aside, sizeof aside, "%s/" RG_JOURNAL_ASIDE "%s", objects, name);
    if (renameat2(AT_FDCWD, p, AT_FDCWD, aside, RENAME_NOREPLACE) != 0)
        return;
    if (lstat(aside, &st) != 0)
        return;
    /* A claimed object the put-back cannot move (a full disk) stays aside,
     * where undo finds it and the next prune puts it back: only a fresh
     * copy under its name (the same bytes) lets it go. */
    if (now - rg_timespec_ns(&st.st_mtim) > PRUNE_GRACE_NS ||
        (renameat2(AT_FDCWD, aside, AT_FDCWD, p, RENAME_NOREPLACE) != 0 && errno == EEXIST))
        unlink(aside);
}

/* Removes what no kept session names, past the grace period. An object
 * kept after the listing is no one's to judge yet; one the listing found
 * old is looked at again, as it is now, before it goes. */
static void sweep(const char *objects, struct rg_jobj *objs, int64_t now)
{
    char p[PATH_MAX + 300];
    for (struct rg_jobj *o = objs; o; o = o->hh.next) {
        if (!o->listed || o->refs > 0 || now - o->kept_ns <= PRUNE_GRACE_NS)
            continue;
        o->kept_ns = 0;
        rg_jobj_look(o, objects);
        if (now - o->kept_ns <= PRUNE_GRACE_NS)
            continue;
        snprintf(p, sizeof p, "%s/%s", objects, o->hex);
        /* A linked name is one inode's in one state, which no later
         * session keeps again; scratch names are no session's. */
        if (rg_jobject_is_linked(o->hex) || !rg_jobject_valid(o->hex))
            unlink(p);
        else
            remove_object(objects, p, o->hex, now);
    }
}

/* Was the journal pruned within the hour? The stamp's mtime says when the
 * last prune ended. */
static bool pruned_lately(const char *stamp, int64_t now)
{
    struct stat st;
    return stat(stamp, &st) == 0 && now - rg_timespec_ns(&st.st_mtim) < PRUNE_EVERY_NS;
}

/* The journal directory, locked for this process's prune, or -1: one that
 * another holds is being pruned, and one that was pruned while we waited
 * needs it no more. Two runs ending together so prune once; a kill -9
 * drops the lock with the process, and what it left is consistent, as
 * each step of a prune is (a session's index goes before its objects). */
static int claim(const char *dir, const char *stamp, bool now_please)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || (!now_please && pruned_lately(stamp, rg_now_ns()))) {
        close(fd);
        return -1;
    }
    return fd;
}

static void stamp_and_unlock(const char *stamp, int lock)
{
    /* O_NONBLOCK: a FIFO planted as the stamp (mkfifo is no call a --strict
     * tree is stopped from) would hold every later run's end waiting for a
     * reader. */
    int fd = open(stamp, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd >= 0) {
        futimens(fd, NULL);
        close(fd);
    }
    close(lock); /* after the stamp: a waiter then sees it fresh */
}

/* The sessions of l (sorted by session), each with its index's size on
 * disk, added to *total; *n of them. */
static struct sess *sessions_of(const struct rg_jlist *l, const char *dir, size_t *n,
                                int64_t *total)
{
    char p[PATH_MAX + 300];
    struct stat st;
    struct sess *s = NULL;
    *n = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (*n && strcmp(s[*n - 1].id, l->r[i].session) == 0)
            continue;
        if (*n)
            s[*n - 1].to = i;
        struct sess *more = realloc(s, (*n + 1) * sizeof *s);
        if (!more)
            abort();
        s = more;
        struct sess *t = &s[(*n)++];
        *t = (struct sess){.id = l->r[i].session,
                           .from = i,
                           .to = l->n,
                           .start_ns = strtoll(l->r[i].session, NULL, 10)};
        snprintf(p, sizeof p, "%s/" RG_JOURNAL_SESSIONS "/%s.jsonl", dir, t->id);
        t->bytes = stat(p, &st) == 0 ? rg_disk_bytes(&st) : 0;
        *total += t->bytes;
    }
    return s;
}

/* Drops the index of each session past the age or size limit, oldest
 * first, never a running one nor the most recent, and uncounts the
 * versions it held. */
static void drop_sessions(const char *dir, const struct rg_jlist *l, struct sess *s, size_t n,
                          const char *objects, struct rg_jobj **objs, int64_t now, int64_t *total)
{
    char p[PATH_MAX + 300];
    int64_t max = max_bytes();
    int64_t days = rg_prune_days();
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i].running || (now - s[i].start_ns <= days * RG_PRUNE_DAY_NS && *total <= max))
            continue;
        s[i].drop = true;
        *total -= s[i].bytes;
        rg_jobjs_count(objs, l, s[i].from, s[i].to, objects, -1, total);
        snprintf(p, sizeof p, "%s/" RG_JOURNAL_SESSIONS "/%s.jsonl", dir, s[i].id);
        unlink(p);
    }
}

void rg_prune_settings_check(void)
{
    (void)max_bytes();
    (void)rg_prune_days();
}

void rg_jprune(const char *dir, bool now_please)
{
    char stamp[PATH_MAX + 16];
    snprintf(stamp, sizeof stamp, "%s/.pruned", dir);
    int64_t now = rg_now_ns();
    if (!now_please && pruned_lately(stamp, now))
        return;
    int lock = claim(dir, stamp, now_please);
    if (lock < 0)
        return;
    struct rg_jlist l = {0};
    /* An index it cannot read names versions it would take for no one's:
     * nothing is removed until every index reads (the stamp still waits an
     * hour, so each run's end does not list every session again). */
    if (rg_jlist_load(dir, NULL, &l) < 0 || l.unread) {
        if (l.unread)
            rg_err("journal prune: nothing removed: %zu session index%s could not be read",
                   l.unread, l.unread > 1 ? "es" : "");
        rg_jlist_free(&l);
        stamp_and_unlock(stamp, lock);
        return;
    }
    char objects[PATH_MAX + 16];
    snprintf(objects, sizeof objects, "%s/" RG_JOURNAL_OBJECTS, dir);
    struct rg_jobj *objs = rg_jobjs_list(objects);
    rg_jobjs_settle(dir, &l, objects, objs);
    size_t n;
    int64_t total = 0;
    struct sess *s = sessions_of(&l, dir, &n, &total);
    for (size_t i = 0; i < n; i++)
        rg_jobjs_count(&objs, &l, s[i].from, s[i].to, objects, +1, &total);
    struct marking running = {s, n};
    rg_jlive_each(dir, mark_running, &running);
    drop_sessions(dir, &l, s, n, objects, &objs, now, &total);
    sweep(objects, objs, now);
    rg_jobjs_free(objs);
    free(s);
    rg_jlist_free(&l);
    stamp_and_unlock(stamp, lock);
}
