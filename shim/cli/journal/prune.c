#include "cli/journal/prune.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

#include "cli/cli.h"
#include "cli/journal/live.h"
#include "cli/journal/settle.h"
#include "cli/journal/store.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/text.h"
#include "os/clock.h"
/* Sessions older than READGUARD_JOURNAL_DAYS (default 30) are dropped, then
 * the oldest others until the journal fits in READGUARD_JOURNAL_MAX (default
 * 1G); the most recent session, and any whose table is still there
 * (jlive.h), is always kept (a running agent's may be asked to undo what
 * it removed a minute ago, however long ago it started). An object goes when no kept
 * session names it, once it is older than a grace period: a running
 * session may have linked it and not yet appended its record. An object's
 * age is its mtime, but a version kept by a link and not yet settled has
 * the mtime of the file it was, which may be years old: its ctime is the
 * link's. Settled, it keeps that mtime (jsettle.c tells a write by it),
 * but a session names it from the moment it has its content name (the
 * settle holds the lock a prune takes until its rename). */
#define PRUNE_GRACE_NS (10LL * 60 * 1000000000)
#define PRUNE_EVERY_NS (60LL * 60 * 1000000000)
#define PRUNE_DEFAULT_MAX (1LL << 30)
#define PRUNE_DEFAULT_DAYS 30

struct obj {
    char hex[RG_JOURNAL_OBJECT_MAX]; /* its name in objects/ */
    int64_t bytes;
    int refs;
    size_t seen; /* the session and direction of the last count (count_refs) */
    struct obj *next;
    UT_hash_handle hh;
};

struct sess {
    char *id;
    size_t from, to; /* its records */
    int64_t start_ns, bytes;
    bool drop, running; /* running: its table is still there (jlive.h) */
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

static int64_t max_bytes(void)
{
    const char *v = getenv(RG_ENV_JOURNAL_MAX);
    int64_t n = v && *v ? rg_size_parse(v) : -1;
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
    if (!v || end == v || *end || n <= 0)
        return PRUNE_DEFAULT_DAYS;
    return errno == ERANGE || n > INT64_MAX / RG_PRUNE_DAY_NS ? INT64_MAX / RG_PRUNE_DAY_NS : n;
}

static int64_t disk_bytes(const struct stat *st) { return (int64_t)st->st_blocks * 512; }

/* The object named name, found or added. A linked name that was settled
 * is a symlink: it weighs nothing, and leads to the object holding it. */
static struct obj *obj_of(struct obj **objs, const char *dir, const char *name)
{
    struct obj *o;
    HASH_FIND_STR(*objs, name, o);
    if (o)
        return o;
    char p[PATH_MAX + 128];
    struct stat st;
    o = calloc(1, sizeof *o);
    if (!o)
        abort();
    snprintf(o->hex, sizeof o->hex, "%s", name);
    snprintf(p, sizeof p, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, name);
    o->bytes = lstat(p, &st) == 0 ? disk_bytes(&st) : 0;
    HASH_ADD_STR(*objs, hex, o);
    return o;
}

/* One session's (pass's) reference to name, counted once. */
static void count_one(struct obj **objs, const char *dir, const char *name, size_t pass, int delta,
                      int64_t *total)
{
    struct obj *o = obj_of(objs, dir, name);
    if (o->seen == pass)
        return;
    o->seen = pass;
    if ((o->refs == 0) != (o->refs + delta == 0))
        *total += delta > 0 ? o->bytes : -o->bytes;
    o->refs += delta;
    char p[PATH_MAX + 128], target[RG_JOURNAL_OBJECT_MAX];
    snprintf(p, sizeof p, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, name);
    ssize_t n = rg_jobject_is_linked(name) ? readlink(p, target, sizeof target - 1) : -1;
    if (n > 0) {
        target[n] = '\0';
        if (rg_jobject_valid(target) && !rg_jobject_is_linked(target))
            count_one(objs, dir, target, pass, delta, total);
    }
}

/* Counts, for each object, the kept sessions that name it: records
 * [from, to) are one session's. */
static void count_refs(struct obj **objs, const struct rg_jlist *l, size_t from, size_t to,
                       const char *dir, int delta, int64_t *total)
{
    size_t pass = 2 * (from + 1) + (delta < 0); /* a session names an object once */
    for (size_t i = from; i < to; i++)
        if (l->r[i].object && rg_jobject_valid(l->r[i].object))
            count_one(objs, dir, l->r[i].object, pass, delta, total);
}

static int64_t stamp_ns(const struct timespec *t)
{
    return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
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
    if (now - stamp_ns(&st.st_mtim) > PRUNE_GRACE_NS ||
        (renameat2(AT_FDCWD, aside, AT_FDCWD, p, RENAME_NOREPLACE) != 0 && errno == EEXIST))
        unlink(aside);
}

/* Puts back what a prune killed between its move aside and its judgement
 * left (the name's part after RG_JOURNAL_ASIDE): a session may name it. The
 * sweep then judges it afresh. */
static void put_back(const char *objects, const char *name)
{
    char aside[PATH_MAX + 300], p[PATH_MAX + 300];
    snprintf(aside, sizeof aside, "%s/%s", objects, name);
    snprintf(p, sizeof p, "%s/%s", objects, name + strlen(RG_JOURNAL_ASIDE));
    if (renameat2(AT_FDCWD, aside, AT_FDCWD, p, RENAME_NOREPLACE) != 0 && errno == EEXIST)
        unlink(aside);
}

/* Removes what no kept session names, past the grace period. */
static void sweep(const char *dir, struct obj *objs, int64_t now)
{
    char objects[PATH_MAX + 16], p[PATH_MAX + 300];
    snprintf(objects, sizeof objects, "%s/" RG_JOURNAL_OBJECTS, dir);
    DIR *d = opendir(objects);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (strncmp(e->d_name, RG_JOURNAL_ASIDE, strlen(RG_JOURNAL_ASIDE)) == 0) {
            put_back(objects, e->d_name);
            continue;
        }
        struct obj *o;
        HASH_FIND_STR(objs, e->d_name, o);
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", objects, e->d_name);
        int64_t kept = 0;
        bool linked = rg_jobject_is_linked(e->d_name);
        if (lstat(p, &st) == 0)
            kept = linked && S_ISREG(st.st_mode) ? stamp_ns(&st.st_ctim) : stamp_ns(&st.st_mtim);
        if ((o && o->refs > 0) || now - kept <= PRUNE_GRACE_NS)
            continue;
        /* A linked name is one inode's in one state, which no later
         * session keeps again; scratch names are no session's. */
        if (linked || !rg_jobject_valid(e->d_name))
            unlink(p);
        else
            remove_object(objects, p, e->d_name, now);
    }
    if (d)
        closedir(d);
}

/* Was the journal pruned within the hour? The stamp's mtime says when the
 * last prune ended. */
static bool pruned_lately(const char *stamp, int64_t now)
{
    struct stat st;
    return stat(stamp, &st) == 0 &&
           now - ((int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec) < PRUNE_EVERY_NS;
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
    int fd = open(stamp, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
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
        t->bytes = stat(p, &st) == 0 ? disk_bytes(&st) : 0;
        *total += t->bytes;
    }
    return s;
}

/* Drops the index of each session past the age or size limit, oldest
 * first, never a running one nor the most recent, and uncounts the
 * versions it held. */
static void drop_sessions(const char *dir, const struct rg_jlist *l, struct sess *s, size_t n,
                          struct obj **objs, int64_t now, int64_t *total)
{
    char p[PATH_MAX + 300];
    int64_t max = max_bytes();
    int64_t days = rg_prune_days();
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i].running || (now - s[i].start_ns <= days * RG_PRUNE_DAY_NS && *total <= max))
            continue;
        s[i].drop = true;
        *total -= s[i].bytes;
        count_refs(objs, l, s[i].from, s[i].to, dir, -1, total);
        snprintf(p, sizeof p, "%s/" RG_JOURNAL_SESSIONS "/%s.jsonl", dir, s[i].id);
        unlink(p);
    }
}

/* Freed through their own list: the hash's links go with HASH_CLEAR. */
static void free_objs(struct obj *objs)
{
    struct obj *o, *tmp;
    for (o = objs; o; o = tmp) {
        tmp = o->hh.next;
        o->next = tmp;
    }
    struct obj *all = objs;
    HASH_CLEAR(hh, objs);
    for (o = all; o; o = tmp) {
        tmp = o->next;
        free(o);
    }
}

void rg_jstore_prune(const char *dir, bool now_please)
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
    rg_jsettle(dir, &l);
    size_t n;
    int64_t total = 0;
    struct sess *s = sessions_of(&l, dir, &n, &total);
    struct obj *objs = NULL;
    for (size_t i = 0; i < n; i++)
        count_refs(&objs, &l, s[i].from, s[i].to, dir, +1, &total);
    struct marking running = {s, n};
    rg_jlive_each(dir, mark_running, &running);
    drop_sessions(dir, &l, s, n, &objs, now, &total);
    sweep(dir, objs, now);
    free_objs(objs);
    free(s);
    rg_jlist_free(&l);
    stamp_and_unlock(stamp, lock);
}
