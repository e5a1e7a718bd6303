/* readguard undo: putting back the version a session's first change to a
 * file replaced, from the journal. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/pick.h"
#include "cli/journal/store.h"
#include "cli/journal/symlink.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/undo/left.h"
#include "cli/undo/restore.h"
#include "cli/undo/same.h"
#include "cli/undo/spot.h"
#include "cli/verbs.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/text.h"
#include "os/clock.h"
#include "os/gitroot.h"
static const char undo_usage[] =
    "Usage: readguard undo [--session S] [--force] FILE...\n"
    "       readguard undo [--session S] [--force] --all\n"
    "Restore each FILE to its content before the first change the most recent\n"
    "session made to it, from the journal; a removed FILE is recreated. The\n"
    "content FILE has now is kept in the journal first, so an undo can be undone.\n"
    "\n" RG_SESSION_HELP ":\n"
    "                       undo what S did (default: the session that last\n"
    "                       changed FILE)\n"
    "  -a, --all            restore every file the session changed; without\n"
    "                       --session, the session (not an undo) that last\n"
    "                       changed a file under the current directory's git\n"
    "                       work tree (else the directory, as run's default\n"
    "                       root), and only its files there; files it created\n"
    "                       are left alone; run inside another session still\n"
    "                       running, it asks for --session instead\n"
    "  -f, --force          restore even if FILE changed after the session last\n"
    "                       wrote it\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0 if every FILE was restored (or already was as before), 1 if one\n"
    "was not (nothing kept, or changed since), a write landed on it as it was\n"
    "restored (its bytes kept: undo FILE again brings them back) or a process still\n"
    "has it open for writing, 2 on bad usage or an error.\n";

struct undo {
    const char *dir;
    struct rg_jlist l;
    bool force;
    char self[RG_JOURNAL_ID_MAX]; /* this undo's own session id */
    struct rg_left_cache left;
};

static int64_t ns_of(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

/* abs, changed after end, has its bytes and mode as end records the
 * session left it: an undo of the undo that replaced them put them back,
 * in a new inode with the time of that undo. No edit made since the
 * session is there to lose. */
static bool left_back(const struct undo *u, const struct rg_jrec *end, const char *abs)
{
    const struct rg_jrec *k = rg_undo_kept_as_left(&u->l, end);
    if (!k)
        return false;
    /* As the inode was kept, not as it may have been written to since. */
    const struct rg_jrec *copy = rg_jlist_copy_of(&u->l, k);
    return rg_undo_holds(u->dir, copy ? copy->object : k->object, end->mode, abs);
}

/* Did the file change after session s last touched it? An "end" record
 * for the path knows how the session left it (guard/journal/end.h). One
 * for the whole session, with no path, knows only when it ended: what a
 * preloaded creator's exit wrote before it recorded each file (in builds
 * of the unreleased cycle; its journals may still be read). A file whose
 * ctime, which cannot be set back, is later was changed by someone else,
 * but for a change within the kernel's clock tick of the end. Without
 * either, the session is still running, which may change the file again,
 * or it was killed before it could record its end: then its table tells
 * (cli/undo/left.h), if it is still there. */
static enum rg_left changed_since(struct undo *u, const char *s, const char *abs)
{
    const struct rg_jrec *end = NULL, *ended = NULL;
    for (size_t i = 0; i < u->l.n; i++) {
        const struct rg_jrec *r = &u->l.r[i];
        if (strcmp(r->session, s) != 0 || rg_jrec_is_save(r))
            continue;
        if (strcmp(r->path, abs) == 0)
            end = r;
        else if (!r->path[0])
            ended = r;
    }
    if (!end && !ended)
        return rg_left_judge(&u->left, s, abs);
    struct stat st;
    bool there = lstat(abs, &st) == 0, changed;
    if (!end)
        changed = there && ns_of(st.st_ctim) > ended->time_ns;
    else
        changed = there != end->exists ||
                  (there && (st.st_ino != end->ino || ns_of(st.st_mtim) != end->mtime_ns ||
                             st.st_size != end->size));
    if (changed && end && end->exists && there && left_back(u, end, abs))
        changed = false;
    return changed ? RG_LEFT_CHANGED : RG_LEFT_AS_IS;
}

/* Is abs already what restoring r would make it? Then there is nothing to
 * restore, whether an earlier undo did it (undo run twice, in a session
 * still running or after it ended) or it changed since: saying "restored"
 * again, and keeping the same bytes again, would tell the user something
 * happened. */
static bool already_restored(const char *dir, const struct rg_jrec *r, const char *abs)
{
    return rg_undo_holds(dir, r->object, r->mode, abs);
}

/* Keeps what abs has now, then puts the version staged in spot in its
 * place, every step in spot's directory: an exit status, or -1 when
 * restored with nothing to say. */
static int restore(struct undo *u, struct rg_jspot *spot, const char *abs, const char *file)
{
    struct rg_jkept kept;
    int r = rg_jstore_keep_at(u->dir, u->self, spot->dir, spot->name, abs, "undo", &kept);
    if (r == 0 && kept.st.st_mode == 0) /* no regular file: a symbolic link, kept as one */
        r = rg_jsym_keep_at(u->dir, u->self, spot->dir, spot->name, abs, "undo", &kept);
    if (r == -EAGAIN) {
        rg_jspot_drop_tmp(spot);
        rg_err("undo: '%s': it changed while undo kept its content; nothing restored (run undo "
               "again)",
               rg_shown(file));
        return RG_EXIT_NO; /* not restored, as when it changed before undo looked */
    }
    if (r == RG_JSTORE_TOO_LARGE) {
        rg_jspot_drop_tmp(spot);
        rg_err("undo: '%s': it is larger now than the journal keeps of a file "
               "(" RG_ENV_JOURNAL_MAX_FILE "), so undo cannot keep its content; nothing "
               "restored (move it away, then undo again)",
               rg_shown(file));
        return RG_EXIT_NO;
    }
    if (r < 0) {
        rg_jspot_drop_tmp(spot);
        rg_err("undo: '%s': cannot keep its content now in the journal, so not restoring: %s",
               rg_shown(file), strerror(-r));
        return RG_EXIT_TROUBLE;
    }
    int rc = rg_jrestore_commit(u->dir, spot, abs, file, &kept);
    rg_jstore_end_at(u->dir, u->self, spot->dir, spot->name, abs);
    return rc;
}

/* abs changed after first's session last wrote it, and there is no
 * --force: what --force would do instead. */
static int changed_after(const struct rg_jrec *first, const char *abs, const char *file,
                         enum rg_left left)
{
    struct stat st;
    if (left == RG_LEFT_UNKNOWN)
        rg_err("undo: '%s': %s %s ended without recording how it left its files (killed?), "
               "and its table is gone: undo cannot tell whether the file changed since; "
               "--force restores it anyway (its content now is kept)",
               rg_shown(file), rg_jrec_who(first), first->session);
    else if (lstat(abs, &st) != 0)
        rg_err("undo: '%s': it was removed or renamed after %s %s last wrote it; "
               "--force recreates it anyway",
               rg_shown(file), rg_jrec_who(first), first->session);
    else if (S_ISLNK(st.st_mode))
        rg_err("undo: '%s': it is a symbolic link now, made after %s %s last wrote it; "
               "--force replaces it anyway (the link is kept)",
               rg_shown(file), rg_jrec_who(first), first->session);
    else
        rg_err("undo: '%s': it changed after %s %s last wrote it; --force restores it "
               "anyway (its content now is kept)",
               rg_shown(file), rg_jrec_who(first), first->session);
    return RG_EXIT_NO;
}

static int undo_one(struct undo *u, const char *only, const char *file)
{
    char abs[PATH_MAX];
    int rc;
    const struct rg_jrec *first = rg_journal_version_of(&u->l, "undo", only, file, abs, &rc);
    if (!first)
        return rc;
    /* The kept inode may have been written to since; a copy of it as it was
     * kept cannot have been. */
    struct rg_jrec from = *first;
    const struct rg_jrec *copy = rg_jlist_copy_of(&u->l, first);
    if (copy)
        from.object = copy->object;
    /* No exchange or rename puts a file over a directory: --force cannot either. */
    struct stat now;
    if (lstat(abs, &now) == 0 && S_ISDIR(now.st_mode)) {
        rg_err("undo: '%s' is a directory now, not the file %s %s changed: move it away, then "
               "undo again",
               rg_shown(file), rg_jrec_who(first), first->session);
        return RG_EXIT_NO;
    }
    if (already_restored(u->dir, &from, abs)) {
        fprintf(stderr, "readguard: '%s' is already as it was before %s %s changed it\n",
                rg_shown(file), rg_jrec_who(first), first->session);
        return RG_EXIT_OK;
    }
    enum rg_left left = u->force ? RG_LEFT_AS_IS : changed_since(u, first->session, abs);
    if (left != RG_LEFT_AS_IS)
        return changed_after(first, abs, file, left);
    struct rg_jspot spot;
    rc = rg_jrestore_stage(u->dir, &from, abs, file, &spot);
    if (rc != 0)
        return rc;
    rc = restore(u, &spot, abs, file);
    rg_jspot_close(&spot);
    if (rc >= 0)
        return rc;
    fprintf(stderr, "readguard: restored '%s' as it was before %s %s changed it\n", rg_shown(file),
            rg_jrec_who(first), first->session);
    return RG_EXIT_OK;
}

/* A change undo --all would pick a session for: not undo's own (undoing the
 * last undo is `undo FILE` again), and under here, so one project's undo
 * never reaches into another. */
static bool mine(const struct rg_jrec *r, const void *here)
{
    return rg_jrec_is_save(r) && strcmp(r->op, "undo") != 0 && rg_path_under(r->path, here);
}

/* Without --session, --all means the session that last changed a file
 * under here, the default root of the current directory, other than an
 * undo; NULL when none did. */
static const char *newest_here(const struct undo *u, const char *here)
{
    const struct rg_jrec *r = rg_jlist_newest(&u->l, mine, here);
    return r ? r->session : NULL;
}

/* A guess made inside a session (an agent's shell) that lands on another
 * one at work still, no end recorded (a second agent in the same tree),
 * would take that work away under it, not the caller's own: said, and
 * true, then. */
static bool other_at_work(const struct undo *u, const char *sid, const char *here)
{
    const char *own = getenv(RG_ENV_SESSION_ID);
    if (!own || !*own || strcmp(own, sid) == 0)
        return false;
    for (size_t i = 0; i < u->l.n; i++)
        if (!rg_jrec_is_save(&u->l.r[i]) && strcmp(u->l.r[i].session, sid) == 0)
            return false;
    rg_err("undo: the last session to change a file under '%s' is %s, still running, not this "
           "one (%s): give --session %s to undo this session's changes, or --session %s to undo "
           "that one's",
           rg_shown(here), sid, own, own, sid);
    return true;
}

/* undo --all: every file the session changed, each once, in the order the
 * session first changed them. Without --session the choice is a guess, so
 * it is said before anything is restored. */
static int undo_all(struct undo *u, const char *only)
{
    char cwd[PATH_MAX], here[PATH_MAX];
    if (!only && !rg_journal_cwd(cwd, sizeof cwd)) {
        rg_err("undo: cannot find the current directory: %s", strerror(errno));
        return RG_EXIT_TROUBLE;
    }
    /* The project is what a session started here guards: from repo/sub,
     * the git reset --hard a session made there reached all of repo/. */
    if (!only)
        rg_default_root(cwd, here, sizeof here);
    const char *sid = only ? only : newest_here(u, here);
    if (!sid) {
        rg_err("undo: no session changed a file under '%s' (see 'readguard history'; "
               "--session ID names one)",
               rg_shown(here));
        return RG_EXIT_NO;
    }
    if (!only && other_at_work(u, sid, here))
        return RG_EXIT_NO;
    const char *in = only ? NULL : here;
    size_t born, nfiles = rg_jlist_all_count(&u->l, sid, in, &born);
    if (!only)
        fprintf(stderr, "readguard: undoing session %s: %zu file%s under '%s'\n", sid, nfiles,
                nfiles == 1 ? "" : "s", rg_shown(here));
    if (born)
        fprintf(stderr,
                "readguard: %zu symbolic link%s the session made, then removed, not made "
                "again (see 'readguard history'; 'readguard undo NAME' makes one)\n",
                born, born == 1 ? "" : "s");
    /* A mistyped id would otherwise restore nothing, and say nothing. */
    if (nfiles + born == 0) {
        rg_err("undo: session %s kept no file in the journal (see 'readguard history')", sid);
        return RG_EXIT_NO;
    }
    int rc = RG_EXIT_OK;
    size_t restored = 0;
    for (size_t i = 0; i < u->l.n; i++) {
        if (!rg_jlist_all_takes(&u->l, i, sid, in))
            continue;
        int one = undo_one(u, sid, u->l.r[i].path);
        restored += one == RG_EXIT_OK;
        rc = one > rc ? one : rc;
    }
    /* The count above was of what the session changed: a reader of a long
     * run must not take it for what was restored. One file's line says it. */
    if (nfiles > 1 && restored < nfiles)
        rg_err("undo: %zu of %zu file%s restored; each other one is named above, with why",
               restored, nfiles, nfiles == 1 ? "" : "s");
    return rc;
}

int rg_cmd_undo(int argc, char **argv)
{
    static const struct option longs[] = {
        {"force", no_argument, NULL, 'f'}, {"all", no_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
    struct rg_verb v = {"undo", undo_usage, "fa", longs, NULL, false};
    struct undo u = {0};
    bool all = false;
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch == 'f')
            u.force = true;
        else if (ch == 'a')
            all = true;
        else
            return rg_verb_usage_error(&v);
    }
    if (all != (optind >= argc)) {
        rg_err(all ? "undo: --all takes no FILE"
                   : "undo: no file given: name the files to restore, or give --all for every "
                     "file the last session changed under this directory");
        return rg_verb_usage_error(&v);
    }
    char dir[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    if (rg_journal_pick(v.session, dir, sizeof dir, id, sizeof id) < 0)
        return RG_EXIT_TROUBLE;
    u.dir = dir;
    u.left.given = v.session;
    int r = rg_jlist_load(dir, NULL, &u.l);
    if (r < 0) {
        rg_err("undo: cannot read the journal '%s': %s", rg_shown(dir), strerror(-r));
        return RG_EXIT_TROUBLE;
    }
    rg_journal_id(u.self, rg_now_ns(), (int32_t)getpid());
    int rc = all ? undo_all(&u, id[0] ? id : NULL) : RG_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        int one = undo_one(&u, id[0] ? id : NULL, argv[i]);
        rc = one > rc ? one : rc;
    }
    rg_jlist_free(&u.l);
    return rc;
}
