/* readguard history: the versions of files the journal kept. */
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
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "core/jrecord.h"
#include "core/text.h"
#include "os/gitroot.h"

static const char history_usage[] =
    "Usage: readguard history [--session S | --all] [--json] [FILE|DIR]...\n"
    "List the versions of files that sessions kept in the journal before changing\n"
    "them, under a header line: time, session, process, operation, size (B, KiB,\n"
    "MiB ...) and path; only those of FILE, or of the files under DIR (a directory,\n"
    "or a name ending in '/'), if given; else those under the current directory's\n"
    "git work tree (else the directory), as undo --all takes it. Oldest first.\n"
    "\n" RG_SESSION_HELP ":\n"
    "                       only S's versions, wherever they are (default: every\n"
    "                       session's)\n"
    "  -a, --all            without FILE, every directory's versions\n"
    "  -j, --json           one JSON object per line, as the journal stores it, with\n"
    "                       the session's id added as 'id' (and 'session')\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0 (with nothing to list, saying so on stderr), or 2 on bad usage,\n"
    "a --session that names no session, or a journal that cannot be read.\n";

/* 9, "9 B"; 4096, "4.0 KiB": sizes are read by people here (--json has
 * the bytes). */
static void human_size(int64_t n, char *out, size_t cap)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    size_t u = 0;
    while (v >= 1024 && u + 1 < sizeof unit / sizeof *unit)
        v /= 1024, u++;
    if (u == 0)
        snprintf(out, cap, "%lld B", (long long)n);
    else
        snprintf(out, cap, "%.1f %s", v, unit[u]);
}

/* The columns of history's lines, header included. */
#define HISTORY_ROW "%-30s  %-26s  %-22s  %-8s  %10s  %s%s\n"

static void print_record(const struct rg_jrec *r, bool json)
{
    if (json) {
        /* "id", as status and sessions name it; "session" (the same id
         * here, a table's path there) stays for the programs that read it. */
        printf("{\"session\":\"%s\",\"id\":\"%s\",%s\n", r->session, r->session, r->line + 1);
        return;
    }
    char note[96] = "", who[4 * 64], proc[4 * 64 + 16], size[32];
    if (!r->object)
        snprintf(note, sizeof note, "  (not kept: %s)", r->unsaved ? r->unsaved : "?");
    /* One row per version: a newline in a name, a file's or the program's
     * (the tree's to choose), would start a false one. */
    rg_line_escape(who, sizeof who, r->prog ? r->prog : "?");
    snprintf(proc, sizeof proc, "%s[%d]", who, r->pid);
    if (r->object && S_ISLNK(r->mode))
        snprintf(size, sizeof size, "symlink");
    else
        human_size(r->size, size, sizeof size);
    char shown[4 * PATH_MAX];
    rg_line_escape(shown, sizeof shown, r->path);
    printf(HISTORY_ROW, r->time ? r->time : "?", r->session, proc, r->op, size, shown, note);
}

/* What the user asked for: a file, or every file under a directory. */
struct wanted {
    char *abs;
    bool dir, seen;
};

/* Is r one of w (all when there are none)? Marks those it is. */
static bool wanted(const struct rg_jrec *r, struct wanted *w, size_t n)
{
    bool hit = n == 0;
    for (size_t i = 0; i < n; i++)
        if (w[i].dir ? rg_path_under(r->path, w[i].abs) : strcmp(w[i].abs, r->path) == 0)
            hit = w[i].seen = true;
    return hit;
}

/* A directory, as it is now (symbolic links resolved), or a name ending in
 * '/' that may be gone (a venv being rebuilt): every version under it. */
static bool want(const char *arg, struct wanted *w)
{
    char name[PATH_MAX], abs[PATH_MAX];
    struct stat st;
    size_t n = strlen(arg);
    w->dir = (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) || (n && arg[n - 1] == '/');
    while (n > 1 && arg[n - 1] == '/')
        n--;
    if (n >= sizeof name)
        return false;
    memcpy(name, arg, n);
    name[n] = '\0';
    if (!(w->dir && realpath(name, abs)) && !rg_journal_abs(name, abs, sizeof abs))
        return false;
    return (w->abs = strdup(abs)) != NULL;
}

static void unwant(struct wanted *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(w[i].abs);
    free(w);
}

/* FILE..., each as the journal names it; NULL once told which is not a path. */
static struct wanted *wants(char **files, size_t n)
{
    struct wanted *w = calloc(n + 1, sizeof *w);
    if (!w)
        abort();
    for (size_t i = 0; i < n; i++)
        if (!want(files[i], &w[i])) {
            rg_err("history: '%s': not a usable path", rg_shown(files[i]));
            unwant(w, n);
            return NULL;
        }
    return w;
}

static bool any_save(const struct rg_jlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (rg_jrec_is_save(&l->r[i]))
            return true;
    return false;
}

/* Silence would read as "the journal is empty" or "a typo": says which,
 * for each FILE (of n) that no version was shown for, or for the whole
 * journal (or session id) when no FILE was given and nothing was shown. */
static void say_none(const struct rg_jlist *l, const char *id, char **args, const struct wanted *w,
                     size_t n, size_t shown)
{
    if (n == 0 && shown == 0 && w[0].abs && any_save(l))
        rg_err("history: no session kept a file under '%s' ('readguard history --all' lists "
               "every directory's)",
               rg_shown(w[0].abs));
    else if (n == 0 && shown == 0) {
        if (id[0])
            rg_err("history: session %s kept no file in the journal", id);
        else
            rg_err("history: no session kept a file in the journal");
    }
    char why[RG_NONE_WHY_MAX];
    for (size_t i = 0; i < n; i++) {
        const char *arg = args[i];
        const char *of = w[i].dir ? "of a file under it" : "of it";
        if (w[i].seen)
            continue;
        if (!w[i].dir && rg_jlist_kept_under(l, w[i].abs))
            rg_err("history: '%s': no session kept a version of it, but of files under it: a "
                   "directory then, %s now ('readguard history %s/' lists them)",
                   rg_shown(arg), rg_journal_dir_now(w[i].abs), rg_shown(arg));
        else if (id[0]) /* only S's records were read: other sessions' are not the answer */
            rg_err("history: '%s': session %s kept no version %s", rg_shown(arg), id, of);
        else
            rg_err("history: '%s': no session kept a version %s%s", rg_shown(arg), of,
                   w[i].dir ? "" : rg_journal_none_why(w[i].abs, false, why));
    }
}

/* A row to show: wrapped, so that the array holds no bare pointers. */
struct row {
    const struct rg_jrec *r;
};

static int by_time(const void *a, const void *b)
{
    const struct rg_jrec *x = ((const struct row *)a)->r, *y = ((const struct row *)b)->r;
    if (x->time_ns != y->time_ns)
        return x->time_ns < y->time_ns ? -1 : 1;
    return x < y ? -1 : x > y; /* as written, where the clock cannot tell */
}

/* The versions asked for, by the time each was kept: the journal holds
 * them by session, and sessions overlap; a session's processes append as
 * they go, a little out of order. */
static struct row *oldest_first(const struct rg_jlist *l, struct wanted *w, size_t nw, size_t *n)
{
    struct row *rows = calloc(l->n + 1, sizeof *rows);
    if (!rows)
        abort();
    *n = 0;
    for (size_t i = 0; i < l->n; i++)
        if (rg_jrec_is_save(&l->r[i]) && wanted(&l->r[i], w, nw))
            rows[(*n)++].r = &l->r[i];
    qsort(rows, *n, sizeof *rows, by_time);
    return rows;
}

/* Without FILE or --session, the versions under here, as undo --all
 * takes it: a project's, not those of every directory the user ever ran
 * a session in. As an extra wanted entry (w has room), out of FILE's. */
static bool scope_here(struct wanted *w)
{
    char cwd[PATH_MAX], here[PATH_MAX];
    if (!rg_journal_cwd(cwd, sizeof cwd)) {
        rg_err("history: cannot find the current directory: %s", strerror(errno));
        return false;
    }
    rg_default_root(cwd, here, sizeof here);
    w->dir = true;
    return (w->abs = strdup(here)) != NULL;
}

/* The wanted records, oldest first, under one header line: how many. */
static size_t print_oldest_first(const struct rg_jlist *l, struct wanted *w, size_t nw, bool json)
{
    size_t shown = 0;
    struct row *rows = oldest_first(l, w, nw, &shown);
    for (size_t i = 0; i < shown; i++) {
        if (i == 0 && !json)
            printf(HISTORY_ROW, "TIME", "SESSION", "PROCESS", "OP", "SIZE", "PATH", "");
        print_record(rows[i].r, json);
    }
    free(rows);
    return shown;
}

int rg_cmd_history(int argc, char **argv)
{
    static const struct option longs[] = {
        {"json", no_argument, NULL, 'j'}, {"all", no_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
    struct rg_verb v = {"history", history_usage, "ja", longs, NULL, false};
    bool json = false, all = false;
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch != 'j' && ch != 'a')
            return rg_verb_usage_error(&v);
        json |= ch == 'j';
        all |= ch == 'a';
    }
    if (all && (v.session || optind < argc)) {
        rg_err("history: --all lists every directory's versions: it takes no --session or FILE");
        return rg_verb_usage_error(&v);
    }
    char dir[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    if (rg_journal_pick(v.session, dir, sizeof dir, id, sizeof id) < 0)
        return RG_EXIT_TROUBLE;
    char **args = argv + optind;
    size_t nfiles = (size_t)(argc - optind);
    struct wanted *files = wants(args, nfiles);
    if (!files)
        return RG_EXIT_TROUBLE;
    size_t nwanted = nfiles;
    if (nfiles == 0 && !v.session && !all) {
        if (!scope_here(&files[0])) {
            unwant(files, 1);
            return RG_EXIT_TROUBLE;
        }
        nwanted = 1;
    }
    struct rg_jlist l = {0};
    int r = rg_jlist_load(dir, id[0] ? id : NULL, &l);
    if (r < 0) {
        rg_err("history: cannot read the journal '%s': %s", rg_shown(dir), strerror(-r));
        unwant(files, nwanted);
        return RG_EXIT_TROUBLE;
    }
    size_t shown = print_oldest_first(&l, files, nwanted, json);
    say_none(&l, id, args, files, nfiles, shown);
    rg_jlist_free(&l);
    unwant(files, nwanted);
    return RG_EXIT_OK;
}
