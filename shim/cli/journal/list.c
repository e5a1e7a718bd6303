/* The journal's records read back: every kept session's index, or one
 * session's by name, parsed and in the order written, and the question
 * undo asks of them (which change comes first). */
#include "cli/journal/store.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/jsonl.h"
#include "core/text.h"

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static int64_t num_or(const struct rg_jobject *o, const char *k, int64_t none)
{
    const char *v = rg_jsonl_get(o, k);
    return v ? strtoll(v, NULL, 10) : none;
}

static int64_t num(const struct rg_jobject *o, const char *k) { return num_or(o, k, 0); }

/* The path's bytes (core/jrecord.h): it fits, as the parser's buffer held
 * it. */
static char *record_path(const struct rg_jobject *o)
{
    char path[sizeof o->buf];
    return strdup(rg_jrecord_path(o, path, sizeof path) ? path : "");
}

static void add(struct rg_jlist *l, const char *session, const char *line)
{
    struct rg_jobject o;
    if (!rg_jrecord_parse(&line, &o))
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        struct rg_jrec *more = realloc(l->r, l->cap * sizeof *l->r);
        if (!more)
            abort();
        l->r = more;
    }
    const char *ex = rg_jsonl_get(&o, "exists"), *obj = rg_jsonl_get(&o, "object");
    /* The name becomes a path under objects/: only the journal's own. */
    bool named = obj && rg_jobject_valid(obj);
    l->r[l->n++] = (struct rg_jrec){
        .session = strdup(session),
        .line = strdup(line),
        .path = record_path(&o),
        .op = strdup(rg_jsonl_get(&o, "op")),
        .prog = dup_or_null(rg_jsonl_get(&o, "prog")),
        .object = named ? strdup(obj) : NULL,
        .unsaved =
            obj && !named ? strdup("bad-object-name") : dup_or_null(rg_jsonl_get(&o, "unsaved")),
        .time = dup_or_null(rg_jsonl_get(&o, "time")),
        .pid = (int)num(&o, "pid"),
        .time_ns = num(&o, "time_ns"),
        .mtime_ns = num(&o, "mtime_ns"),
        .atime_ns = num_or(&o, "atime_ns", INT64_MIN),
        .size = num(&o, "size"),
        .dev = (uint64_t)num(&o, "dev"),
        .ino = (uint64_t)num(&o, "ino"),
        .mode = (uint32_t)num(&o, "mode"),
        /* Not 0 where absent: that would hand the file to root. */
        .uid = num_or(&o, "uid", -1),
        .gid = num_or(&o, "gid", -1),
        .exists = ex && strcmp(ex, "true") == 0,
    };
}

/* An index is a regular file readguard made: a symbolic link, a FIFO or a
 * node there is none (a --strict tree may plant those in the journal,
 * where the filter does not see it, to have undo restore what it chose). */
static FILE *open_index(const char *path)
{
    struct stat at, got;
    /* Looked at first, so a FIFO never blocks the open; fopen, not fdopen,
     * whose fcntl a failing lease probe (strace) would fail too. */
    if (lstat(path, &at) != 0)
        return NULL;
    FILE *f = S_ISREG(at.st_mode) ? fopen(path, "re") : NULL;
    if (f && (fstat(fileno(f), &got) != 0 || got.st_ino != at.st_ino || got.st_dev != at.st_dev)) {
        fclose(f);
        f = NULL;
        errno = ESTALE;
    }
    if (!f && !S_ISREG(at.st_mode))
        errno = S_ISLNK(at.st_mode) ? ELOOP : EINVAL;
    return f;
}

static int load_file(const char *path, const char *session, struct rg_jlist *l)
{
    FILE *f = open_index(path);
    if (!f)
        return -errno;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] != '\n')
            break; /* a record cut short by a kill: never half-trusted */
        line[n - 1] = '\0';
        add(l, session, line);
    }
    int r = ferror(f) ? -(errno ? errno : EIO) : 0;
    free(line);
    fclose(f);
    return r;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_index(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return d->d_name[0] != '.' && n > 6 && strcmp(d->d_name + n - 6, ".jsonl") == 0;
}

/* One session's index, opened by its name: a run ends in the time its own
 * records take, however many sessions the journal keeps. A name the
 * directory's listing would not have yielded (is_index) names nothing. */
static int load_one(const char *sessions, const char *id, struct rg_jlist *l)
{
    char path[PATH_MAX + 256];
    if (!id[0] || id[0] == '.' || strchr(id, '/') ||
        (size_t)snprintf(path, sizeof path, "%s/%s.jsonl", sessions, id) >= sizeof path)
        return 0;
    int r = load_file(path, id, l);
    return r == -ENOENT || r == -ENOTDIR ? 0 : r;
}

int rg_jlist_load(const char *dir, const char *only, struct rg_jlist *l)
{
    char sessions[PATH_MAX], path[PATH_MAX + 256];
    snprintf(sessions, sizeof sessions, "%s/" RG_JOURNAL_SESSIONS, dir);
    if (only)
        return load_one(sessions, only, l);
    struct dirent **names;
    int n = scandir(sessions, &names, is_index, by_name);
    if (n < 0)
        return errno == ENOENT ? 0 : -errno;
    for (int i = 0; i < n; i++) {
        char id[256];
        snprintf(id, sizeof id, "%.*s", (int)strlen(names[i]->d_name) - 6, names[i]->d_name);
        snprintf(path, sizeof path, "%s/%s", sessions, names[i]->d_name);
        int r = load_file(path, id, l);
        /* Gone since the listing: a prune dropped it, with its records. A
         * link or a FIFO is no index (open_index): counted unread, it would
         * stop every prune, and the journal's cap with it. */
        if (r == -ELOOP || r == -EINVAL)
            rg_err("journal: '%s' is not a session index readguard made: ignored", rg_shown(path));
        else if (r < 0 && r != -ENOENT) {
            l->unread++;
            rg_err("journal: cannot read the session index '%s': %s", rg_shown(path), strerror(-r));
        }
        free(names[i]);
    }
    free(names);
    return 0;
}

void rg_jlist_free(struct rg_jlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        struct rg_jrec *r = &l->r[i];
        free(r->session), free(r->line), free(r->path), free(r->op), free(r->prog);
        free(r->object), free(r->unsaved), free(r->time);
    }
    free(l->r);
    *l = (struct rg_jlist){0};
}

/* A session run with --no-journal keeps nothing, so the verbs asked about
 * it would find nothing of it and say only that: say why, once. */

bool rg_jrec_is_save(const struct rg_jrec *r) { return strcmp(r->op, "end") != 0; }

/* Nothing writes a symbolic link, so its mtime is its birth: stamped at or
 * after its session began (the id's first field), and not after the keep
 * (a link unpacked or touched with a time to come is older than it says),
 * it was not there before that session. A coarse file-system clock errs
 * towards before. */
bool rg_jrec_link_born_in_session(const struct rg_jrec *r)
{
    return S_ISLNK(r->mode) && r->mtime_ns >= strtoll(r->session, NULL, 10) &&
           r->mtime_ns <= r->time_ns;
}

const char *rg_jrec_who(const struct rg_jrec *r)
{
    return strcmp(r->op, "undo") == 0 ? "the undo" : "session";
}

bool rg_jlist_kept_under(const struct rg_jlist *l, const char *abs)
{
    for (size_t i = 0; i < l->n; i++)
        if (rg_jrec_is_save(&l->r[i]) && strcmp(l->r[i].path, abs) != 0 &&
            rg_path_under(l->r[i].path, abs))
            return true;
    return false;
}

const struct rg_jrec *rg_jlist_newest(const struct rg_jlist *l, rg_jrec_pred *want, const void *arg)
{
    const struct rg_jrec *newest = NULL;
    for (size_t i = 0; i < l->n; i++)
        if (want(&l->r[i], arg) && (!newest || l->r[i].time_ns >= newest->time_ns))
            newest = &l->r[i];
    return newest;
}

struct change_of {
    const char *only, *abs;
};

static bool changes(const struct rg_jrec *r, const void *arg)
{
    const struct change_of *c = arg;
    return rg_jrec_is_save(r) && strcmp(r->path, c->abs) == 0 &&
           (!c->only || strcmp(c->only, r->session) == 0);
}

/* Sessions overlap (an agent's long one, a user's run beside it): the one
 * that started last need not be the one that changed abs last. */
const struct rg_jrec *rg_jlist_first_change(const struct rg_jlist *l, const char *only,
                                            const char *abs)
{
    struct change_of c = {only, abs};
    const struct rg_jrec *last = rg_jlist_newest(l, changes, &c);
    if (!last)
        return NULL;
    c.only = last->session;
    for (size_t i = 0; i < l->n; i++)
        if (changes(&l->r[i], &c))
            return &l->r[i];
    return NULL;
}

/* Is copy a copy of the inode that linked kept by a link, in the state it
 * was kept in? */
static bool copies(const struct rg_jrec *copy, const struct rg_jrec *linked)
{
    return strcmp(copy->session, linked->session) == 0 && rg_jrec_is_save(copy) && copy->object &&
           rg_jobject_valid(copy->object) && !rg_jobject_is_linked(copy->object) &&
           copy->dev == linked->dev && copy->ino == linked->ino && copy->size == linked->size &&
           copy->mtime_ns == linked->mtime_ns;
}

static bool kept_by_link(const struct rg_jrec *r)
{
    return rg_jrec_is_save(r) && r->object && rg_jobject_is_linked(r->object);
}

const struct rg_jrec *rg_jlist_copy_of(const struct rg_jlist *l, const struct rg_jrec *linked)
{
    if (!kept_by_link(linked))
        return NULL;
    for (const struct rg_jrec *r = linked + 1; r < l->r + l->n; r++)
        if (copies(r, linked))
            return r;
    return NULL;
}

bool rg_jlist_copy_only(const struct rg_jlist *l, const struct rg_jrec *r)
{
    static const char unnamed[] = " (deleted)";
    size_t n = strlen(r->path);
    if (n < sizeof unnamed || strcmp(r->path + n - (sizeof unnamed - 1), unnamed) != 0)
        return false;
    for (const struct rg_jrec *linked = l->r; linked < r; linked++)
        if (kept_by_link(linked) && copies(r, linked))
            return true;
    return false;
}

/* Did session sid make the name r keeps a version of, by moving a file
 * there (the backup of a first sed -i~, which a second replaces)? Then the
 * inode r kept is one the session kept earlier as it moved away from
 * another name: had the name been there before, its own file would have
 * been kept first, and the journal's link held the moved inode, so its
 * number was not reused meanwhile. */
static bool made_by_move(const struct rg_jlist *l, size_t i, const char *sid)
{
    const struct rg_jrec *r = &l->r[i];
    for (size_t j = 0; j < i; j++) {
        const struct rg_jrec *m = &l->r[j];
        if (strcmp(m->op, RG_JOURNAL_OP_MOVE) == 0 && strcmp(m->session, sid) == 0 &&
            m->dev == r->dev && m->ino == r->ino && strcmp(m->path, r->path) != 0)
            return true;
    }
    return false;
}

/* Is r the first save of its path in session sid (undo --all restores each
 * file once, and leaves the names the session made)? With here, only files
 * under it count. */
static bool first_of_file(const struct rg_jlist *l, size_t i, const char *sid, const char *here)
{
    const struct rg_jrec *r = &l->r[i];
    if (!rg_jrec_is_save(r) || strcmp(r->session, sid) != 0 ||
        (here && !rg_path_under(r->path, here)) || rg_jlist_copy_only(l, r))
        return false;
    for (size_t j = 0; j < i; j++)
        if (rg_jrec_is_save(&l->r[j]) && strcmp(l->r[j].session, sid) == 0 &&
            strcmp(l->r[j].path, r->path) == 0)
            return false;
    return !made_by_move(l, i, sid);
}

bool rg_jlist_all_takes(const struct rg_jlist *l, size_t i, const char *sid, const char *here)
{
    return first_of_file(l, i, sid, here) && !rg_jrec_link_born_in_session(&l->r[i]);
}

size_t rg_jlist_all_count(const struct rg_jlist *l, const char *sid, const char *here, size_t *born)
{
    size_t n = 0;
    *born = 0;
    for (size_t i = 0; i < l->n; i++) {
        bool f = first_of_file(l, i, sid, here), b = rg_jrec_link_born_in_session(&l->r[i]);
        n += f && !b;
        *born += f && b;
    }
    return n;
}
