#include "cli/would.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/shown.h"
#include "core/content.h"
#include "core/jrecord.h"
#include "core/policy.h"
#include "core/report.h"
#include "core/request.h"
#include "core/table.h"
#include "core/text.h"
#include "guard/ctx.h"
#include "guard/namehint.h"
#include "guard/readhash.h"
#include "guard/tier/scope.h"
#include "os/clock.h"
#include "os/errname.h"
#include "os/lineage.h"
#include "os/session.h"
#include "os/sys.h"
/* The shim's own context on t: the same roots, ignore rules and git's rules
 * put a path in its tier, by the same code (guard/tier/scope.h), and the same
 * knobs (--no-journal, --read-ttl) go into the facts. One per process, as in
 * the shim: the command asks about one session at a time. */
static struct rg_ctx *ctx_for(const struct rg_table *t)
{
    static struct rg_ctx ctx;
    if (ctx.table.hdr != t->hdr) {
        memset(&ctx, 0, sizeof ctx);
        ctx.table = *t;
        rg_ctx_use_table(&ctx);
        /* Asked for a process of the session (a hook speaks for a tool of
         * it): one that wrote the table cut short would crash the rest. */
        ctx.table_kept_whole = true;
    }
    return &ctx;
}

enum rg_scope rg_would_scope(const struct rg_table *t, const char *path)
{
    char abs[PATH_MAX];
    return rg_scope_locate(ctx_for(t), AT_FDCWD, path, -1, true, true, abs, sizeof abs);
}

bool rg_would_under_a_root(const struct rg_header *h, const char *path)
{
    char abs[PATH_MAX];
    if (!realpath(path, abs))
        return true;
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r))
        if (rg_path_under(abs, r))
            return true;
    return false;
}

/* The bytes of the file examined, for a decision that asks for them. */
static void hash_of(const char *path, struct rg_file *f)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    f->hashed = true;
    f->hash = 0;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_ino == f->ino && st.st_dev == f->dev)
        f->hash = rg_content_hash(fd, f->size);
    if (fd >= 0)
        close(fd);
}

/* Fills f; false (after reporting) when the path cannot be examined. */
static bool examine(const char *path, const char *call, struct rg_file *f)
{
    struct stat st;
    *f = (struct rg_file){.scope = RG_SCOPE_UNKNOWN};
    if (!*path) {
        /* dirname("") is ".", which would call it a new file there. */
        rg_err("%s: '': an empty name names no file (an open of it fails with ENOENT)", call);
        return false;
    }
    if (stat(path, &st) == 0) {
        f->exists = true;
        f->regular = S_ISREG(st.st_mode);
        f->dev = st.st_dev;
        f->ino = st.st_ino;
        f->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        f->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
        f->size = st.st_size;
        return true;
    }
    int e = errno;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    const char *parent = dirname(dir);
    int parent_err = stat(parent, &st) == 0 ? 0 : errno;
    if (e == ENOENT && !parent_err && S_ISDIR(st.st_mode))
        return true; /* a new file in an existing directory */
    /* Not a decision: an open there fails (ENOENT) before any guard is asked. */
    if (e == ENOENT && parent_err == ENOENT)
        rg_err("%s: '%s': the directory '%s' does not exist: an open there fails "
               "(ENOENT), which readguard does not refuse",
               call, rg_shown(path), rg_shown(parent));
    else
        rg_err("%s: '%s': %s", call, rg_shown(path), strerror(e));
    return false;
}

void rg_would_unkept(struct rg_would *w, enum rg_unkept why, int err)
{
    w->file.unkept = why;
    w->file.unkept_err = err;
    w->file.unkept_errname = rg_errname(err);
    w->decision = rg_decide(&w->req, &w->file, &w->facts);
}

/* Would the journal keep the file's old bytes? What the shim finds out by
 * trying, told without writing: the per-file cap, a readable file, and a
 * journal (or the nearest directory above it that exists yet) this
 * process may write, with room for the bytes. */
static void predict_keep(const struct rg_table *t, const char *path, struct rg_would *w)
{
    const struct rg_header *h = t->hdr;
    char dir[PATH_MAX];
    struct statvfs v;
    if (w->file.size > h->journal_max_file) {
        rg_would_unkept(w, RG_UNKEPT_TOO_LARGE, 0);
        return;
    }
    if (access(path, R_OK) != 0) {
        rg_would_unkept(w, RG_UNKEPT_UNREADABLE, errno);
        return;
    }
    struct stat st = {0};
    rg_concat(dir, sizeof dir, h->journal_dir, "/", RG_JOURNAL_OBJECTS);
    for (char *slash; stat(dir, &st) != 0 && (slash = strrchr(dir, '/')) && slash > dir;)
        *slash = '\0';
    if (!S_ISDIR(st.st_mode))
        rg_would_unkept(w, RG_UNKEPT_JOURNAL, ENOTDIR);
    else if (access(dir, W_OK) != 0)
        rg_would_unkept(w, RG_UNKEPT_JOURNAL, errno);
    else if (statvfs(dir, &v) == 0 && (int64_t)(v.f_bavail * v.f_frsize) < w->file.size)
        rg_would_unkept(w, RG_UNKEPT_JOURNAL, ENOSPC);
}

bool rg_would_write(const struct rg_table *t, const char *path, const char *call,
                    struct rg_would *w)
{
    struct rg_file *f = &w->file;
    if (!examine(path, call, f))
        return false;
    struct rg_ctx *c = ctx_for(t);
    const struct rg_entry *e = f->exists ? rg_table_find(t, f->dev, f->ino) : NULL;
    w->facts = rg_facts_for(c, e);
    w->facts.own_table = f->exists && rg_ctx_own_table(c, f->dev, f->ino);
    w->own_write = e && (atomic_load((_Atomic uint32_t *)&e->gen) & RG_GEN_WRITE);
    w->outside_roots = false;
    w->req = (struct rg_request){.op = RG_OP_OPEN,
                                 .call = call,
                                 .dirfd = AT_FDCWD,
                                 .path = path,
                                 .flags = O_WRONLY | O_TRUNC};
    w->decision = rg_decide(&w->req, f, &w->facts);
    if (w->decision.action == RG_NEED_HASH) {
        hash_of(path, f);
        w->decision = rg_decide(&w->req, f, &w->facts);
    }
    if (w->decision.action == RG_NEED_LINEAGE) {
        /* As for this process: one run from inside the session, or a hook
         * speaking for an agent, which descends from no scan of its shell. */
        int32_t reader = (int32_t)(w->facts.rec.reader & RG_READER_PID_MASK);
        w->facts.lineage =
            rg_descends((int32_t)getpid(), reader) ? RG_LINEAGE_DESCENDS : RG_LINEAGE_OTHER;
        w->decision = rg_decide(&w->req, f, &w->facts);
    }
    if (w->decision.action == RG_NEED_SCOPE) {
        f->scope = rg_would_scope(t, path);
        w->outside_roots = f->scope == RG_SCOPE_FREE && !rg_would_under_a_root(t->hdr, path);
        w->decision = rg_decide(&w->req, f, &w->facts);
    }
    if (w->decision.action == RG_ALLOW_KEPT)
        predict_keep(t, path, w);
    enum rg_action a = w->decision.action;
    w->was = (struct rg_record){0};
    if ((a == RG_REFUSE || a == RG_WARN) && w->decision.reason == RG_WHY_UNREAD) {
        char abs[PATH_MAX];
        w->decision.reason =
            rg_namehint_reason(c, &w->req, realpath(path, abs) ? abs : "", f, &w->was);
    }
    return true;
}

void rg_would_reason(const struct rg_table *t, const char *path, const struct rg_would *w,
                     char *out, size_t cap)
{
    char scanner[16];
    rg_scanner_name(t->hdr, (int32_t)(w->facts.rec.reader & RG_READER_PID_MASK), scanner);
    struct rg_report r = {.req = &w->req,
                          .shown_path = path,
                          .abs_path = path,
                          .file = &w->file,
                          .facts = &w->facts,
                          .decision = w->decision,
                          .scanner = scanner,
                          .was = &w->was,
                          .unreadable = w->decision.reason == RG_WHY_UNREAD &&
                                        access(path, R_OK) != 0 && errno == EACCES};
    rg_reason_text(out, cap, &r, rg_table_full_at(t->hdr), NULL);
}

const char *rg_would_allowed_why(const struct rg_would *w)
{
    const struct rg_file *f = &w->file;
    const struct rg_record *rec = &w->facts.rec;
    if (!f->exists)
        return "it does not exist: writing it creates a new file.";
    if (!f->regular)
        return "it is not a regular file.";
    if (rg_record_scanned(rec) && w->facts.lineage == RG_LINEAGE_DESCENDS)
        return "it was only scanned in this session, by this process or one it descends from.";
    /* A file the session wrote last was maybe never read: say which. */
    if (rec->found && f->hashed && f->hash == rec->hash)
        return w->own_write ? "this session wrote it last, and its bytes are the same."
                            : "it was read in this session and its bytes are the same.";
    if (rg_record_match(f, rec) == RG_STAMP_MATCHES)
        return w->own_write ? "this session wrote it last, and it has not changed since."
                            : "it was read in this session and has not changed since.";
    if (rec->writers > 0 && w->facts.writer_alive)
        return "a process of this session is writing it.";
    if (f->scope == RG_SCOPE_JOURNALED)
        return "it is in the journaled tier (git ignores it, a 'journal' rule names it, or a "
               "tool owns it): a write is allowed, and its old bytes are kept first.";
    if (!w->outside_roots)
        return "it is in the free tier (readguard's ignore rules leave it to the tools).";
    return "it is outside the session's roots.";
}

void rg_would_log(const struct rg_table *t, const char *path, const char *prog,
                  const struct rg_would *w)
{
    struct rg_header *h = t->hdr;
    bool warn = w->decision.action == RG_WARN;
    atomic_fetch_add(warn ? &h->warnings : &h->refusals, 1);
    if (!h->log_path[0])
        return;
    char abs[PATH_MAX];
    if (!realpath(path, abs))
        snprintf(abs, sizeof abs, "%s", path);
    const struct rg_record *rec = &w->facts.rec;
    char sid[RG_JOURNAL_ID_MAX];
    rg_journal_id(sid, h->created_ns, h->creator_pid);
    struct rg_log_line l = {
        .time_ns = rg_now_ns(),
        .pid = (int)getpid(),
        .prog = prog,
        .op = rg_op_name(w->req.op),
        .call = w->req.call,
        .path = abs,
        .decision = warn ? "warn" : "refuse",
        .reason = rg_reason_name(w->decision.reason),
        .recorded = rec->found,
        .recorded_mtime_ns = rec->mtime_ns,
        .recorded_size = rec->size,
        .current_mtime_ns = w->file.mtime_ns,
        .current_size = w->file.size,
        .session = sid,
    };
    rg_cli_log(h->log_path, &l);
}
