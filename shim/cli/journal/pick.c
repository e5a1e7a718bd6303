/* Which journal a verb reads, the name it knows a file by, and why it
 * holds nothing of one: what history, diff and undo share before they read
 * a record. */
#include "cli/journal/pick.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/store.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/text.h"
#include "os/session.h"

static void no_journal_note(const struct rg_header *h)
{
    if (!(h->flags & RG_POLICY_NO_JOURNAL))
        return;
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, h->created_ns, h->creator_pid);
    rg_err("note: session %s runs with --no-journal: it keeps nothing in the journal, and "
           "what it changes cannot be undone",
           id);
}

int rg_journal_pick(const char *session, char *dir, size_t cap, char *id, size_t idcap)
{
    id[0] = '\0';
    struct rg_session_ref ref = {0};
    if (session)
        rg_session_resolve(session, &ref);
    if (session && !ref.table) {
        /* An ended session's table is gone; its id names it in the journal. */
        snprintf(id, idcap, "%s", ref.id);
        rg_session_default_journal(dir, cap);
        if (!dir[0]) {
            rg_err("no journal: neither XDG_STATE_HOME nor HOME is an absolute path");
            return -1;
        }
        return 0;
    }
    /* history, diff and undo take an ended session's id already: the hint
     * pick.c gives other verbs, to come here with the id, would go round. */
    struct stat st;
    if (session && !rg_journal_is_id(session) && lstat(session, &st) != 0 && errno == ENOENT) {
        rg_err("session '%s': no such table, nor a session id (as 'readguard history' prints "
               "them)",
               rg_shown(session));
        return -1;
    }
    const char *env = getenv(RG_ENV_SESSION);
    const char *named = session ? ref.table : env && *env ? env : NULL;
    struct rg_cli_session s;
    if (named && rg_pick_session(named, &s) == 0) {
        snprintf(dir, cap, "%s", s.table.hdr->journal_dir);
        no_journal_note(s.table.hdr);
        if (session) {
            char jid[RG_JOURNAL_ID_MAX];
            rg_journal_id(jid, s.table.hdr->created_ns, s.table.hdr->creator_pid);
            snprintf(id, idcap, "%s", jid);
        }
        rg_drop_session(&s);
    } else if (session) {
        return -1; /* rg_pick_session said why */
    } else {
        rg_session_default_journal(dir, cap);
    }
    if (!dir[0]) {
        rg_err("no journal: neither XDG_STATE_HOME nor HOME is an absolute path");
        return -1;
    }
    return 0;
}

/* The newest session of this user's with --no-journal that has abs under
 * a root: its table is still in the table directories (running, or left
 * behind), so it is known without a record. */
struct unjournaled {
    const char *abs;
    int64_t created_ns;
    char id[RG_JOURNAL_ID_MAX];
};

static void unjournaled_over(const char *path, void *arg)
{
    struct unjournaled *u = arg;
    struct rg_table t;
    if (rg_session_attach(path, &t))
        return;
    const struct rg_header *h = t.hdr;
    bool over = false;
    for (const char *r = rg_table_root(h, NULL); r && !over; r = rg_table_root(h, r))
        over = rg_path_under(u->abs, r);
    if (over && (h->flags & RG_POLICY_NO_JOURNAL) && h->created_ns > u->created_ns) {
        u->created_ns = h->created_ns;
        rg_journal_id(u->id, h->created_ns, h->creator_pid);
    }
    rg_session_detach(&t);
}

/* The name of a backup beside abs (abs~, abs.bak, abs.orig: sed -i~, mv -b,
 * cp -b, editors), built in out; NULL when there is none. */
static const char *backup_beside(const char *abs, char *out, size_t cap)
{
    static const char suffixes[][6] = {"~", ".bak", ".orig"};
    struct stat st;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if ((size_t)snprintf(out, cap, "%s%s", abs, suffixes[i]) < cap && lstat(out, &st) == 0 &&
            S_ISREG(st.st_mode))
            return strrchr(out, '/') + 1;
    return NULL;
}

const char *rg_journal_none_why(const char *abs, bool always, char why[RG_NONE_WHY_MAX])
{
    char backup[PATH_MAX + 8];
    const char *name;
    struct unjournaled u = {abs, 0, ""};
    rg_each_session_file(unjournaled_over, &u);
    struct stat st;
    if (u.id[0])
        snprintf(why, RG_NONE_WHY_MAX, "; session %s, run with --no-journal over it, keeps nothing",
                 u.id);
    else if (lstat(abs, &st) != 0)
        return "; it is not there now, and no session kept it as it was moved or removed (one "
               "run with --no-journal keeps nothing): if it was moved, look for it under its "
               "new name";
    else if ((name = backup_beside(abs, backup, sizeof backup)))
        /* The file was moved there, and a new one made in its place, by
         * no session that kept the move (--no-journal, or outside one). */
        snprintf(why, RG_NONE_WHY_MAX,
                 "; '%s' beside it may hold its old bytes (sed -i~, mv -b and editors move the "
                 "original to a backup name)",
                 rg_shown(name));
    else
        return always ? "; a session run with --no-journal keeps nothing" : "";
    return why;
}

const char *rg_journal_dir_now(const char *abs)
{
    struct stat st;
    if (lstat(abs, &st) != 0)
        return "gone";
    return S_ISREG(st.st_mode) ? "a file" : "no directory";
}

/* Does FILE end in '/', the name of a directory, there or gone? */
static bool names_dir(const char *file)
{
    size_t n = strlen(file);
    return n > 0 && file[n - 1] == '/';
}

/* path with its deepest directory that exists resolved, the rest (gone)
 * kept as written: the journal records real paths. */
static bool resolve_gone(const char *path, char *out, size_t cap)
{
    char head[PATH_MAX], real[PATH_MAX];
    if (snprintf(head, sizeof head, "%s", path) >= (int)sizeof head)
        return false;
    while (!realpath(head, real)) {
        char *slash = strrchr(head, '/');
        if (!slash || slash == head)
            return (size_t)snprintf(out, cap, "%s", path) < cap;
        *slash = '\0';
    }
    const char *rest = path + strlen(head);
    return (size_t)snprintf(out, cap, "%s%s", strcmp(real, "/") ? real : "", rest) < cap;
}

bool rg_journal_cwd(char *out, size_t cap)
{
    if (getcwd(out, cap))
        return true;
    const char *pwd = getenv("PWD");
    if (errno != ENOENT || !pwd || pwd[0] != '/' || !resolve_gone(pwd, out, cap))
        return false;
    static bool told; /* process-wide: a note to the user, said once per command */
    if (!told)
        rg_err("note: the current directory was removed; taken as '%s', the name $PWD gives "
               "it (the shell stays in the removed one: cd \"$PWD\" to see what undo puts back)",
               rg_shown(out));
    told = true;
    return true;
}

bool rg_journal_abs(const char *file, char *out, size_t cap)
{
    char buf[PATH_MAX], cwd[PATH_MAX], real[PATH_MAX];
    struct stat st;
    size_t n = strlen(file);
    /* "" (an unset variable) is not the cwd, and "f/" is not f: they name no
     * file, and would restore or list the wrong one. */
    if (n == 0)
        return false;
    if (lstat(file, &st) == 0 && !S_ISLNK(st.st_mode) && realpath(file, real))
        return (size_t)snprintf(out, cap, "%s", real) < cap;
    if (names_dir(file))
        return false;
    if (!rg_journal_cwd(cwd, sizeof cwd) || !rg_path_join(buf, sizeof buf, cwd, file))
        return false;
    /* Gone, or a symlink: resolve its directory, keep its name. */
    char *slash = strrchr(buf, '/');
    *slash = '\0';
    const char *parent = buf[0] ? buf : "/";
    if (!realpath(parent, real))
        snprintf(real, sizeof real, "%s", parent);
    return (size_t)snprintf(out, cap, "%s/%s", strcmp(real, "/") ? real : "", slash + 1) < cap;
}

/* What VERB takes, for a name of a directory: undo's --all takes more.
 * slash: "/" for a directory that is gone, which history lists only so. */
static void takes_files(const char *verb, const char *file, const char *what, const char *slash)
{
    bool undo = strcmp(verb, "undo") == 0;
    rg_err("%s: '%s' %s: %s takes files ('readguard history %s%s' lists those kept under it%s)",
           verb, rg_shown(file), what, verb, rg_shown(file), slash,
           undo ? "; 'undo --all' restores a session's files" : "");
}

/* The version of file by its name as given, not resolved: the journal
 * records real paths, and a directory on the way that is a symbolic link
 * now (`mv sub sub2; ln -s sub2 sub`) resolves elsewhere. Found so, abs
 * becomes that name, and undo, which follows no link on the way, says what
 * is there instead of that nothing was kept. */
static const struct rg_jrec *by_name_as_given(const struct rg_jlist *l, const char *only,
                                              const char *file, char *abs)
{
    char cwd[PATH_MAX], given[PATH_MAX];
    if (file[0] != '/' && !rg_journal_cwd(cwd, sizeof cwd))
        return NULL;
    if (!rg_path_join(given, sizeof given, file[0] == '/' ? "/" : cwd, file) ||
        strcmp(given, abs) == 0)
        return NULL;
    const struct rg_jrec *r = rg_jlist_first_change(l, only, given);
    if (r)
        memcpy(abs, given, strlen(given) + 1);
    return r;
}

const struct rg_jrec *rg_journal_version_of(const struct rg_jlist *l, const char *verb,
                                            const char *only, const char *file, char *abs, int *rc)
{
    *rc = RG_EXIT_NO;
    if (!rg_journal_abs(file, abs, PATH_MAX)) {
        if (names_dir(file)) {
            takes_files(verb, file, "names a directory", "");
            return NULL;
        }
        rg_err("%s: '%s': not a usable path", verb, rg_shown(file));
        *rc = RG_EXIT_TROUBLE;
        return NULL;
    }
    const struct rg_jrec *first = rg_jlist_first_change(l, only, abs);
    if (!first)
        first = by_name_as_given(l, only, file, abs);
    struct stat st;
    if (!first && stat(abs, &st) == 0 && S_ISDIR(st.st_mode))
        takes_files(verb, file, "is a directory", "");
    else if (!first && rg_jlist_kept_under(l, abs)) {
        char what[64];
        snprintf(what, sizeof what, "was a directory, %s now", rg_journal_dir_now(abs));
        takes_files(verb, file, what, "/");
    } else if (!first && only && rg_jlist_first_change(l, NULL, abs))
        rg_err("%s: '%s': session %s kept no version of it (other sessions did: see "
               "'readguard history %s')",
               verb, rg_shown(file), only, rg_shown(file));
    else if (!first)
        rg_err("%s: '%s': no session kept a version of it (see 'readguard history')%s", verb,
               rg_shown(file), rg_journal_none_why(abs, true, (char[RG_NONE_WHY_MAX]){0}));
    else if (!first->object)
        rg_err("%s: '%s': session %s changed it, but its old bytes were not kept (%s)", verb,
               rg_shown(file), first->session, first->unsaved ? first->unsaved : "?");
    else
        return first;
    return NULL;
}
