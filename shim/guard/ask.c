#include "guard/ask.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/content.h"
#include "core/report.h"
#include "guard/log.h"
#include "guard/namehint.h"
#include "guard/readhash.h"
#include "guard/tier/scope.h"
#include "guard/workdir.h"
#include "os/lineage.h"
#include "os/sys.h"
/* rg_entry_of_write where the hint missed: probes the index, and hints
 * what it found. */
struct rg_entry *rg_entry_probe_write(struct rg_ctx *c, uint64_t dev, uint64_t ino, bool add)
{
    struct rg_entry *e =
        add ? rg_table_find_or_add(&c->table, dev, ino) : rg_table_find(&c->table, dev, ino);
    if (e)
        rg_entry_hint(c, &c->write_hint, e);
    return e;
}

void rg_take_hash(const struct rg_request *req, struct rg_file *f, int fd, bool follow)
{
    char link[32];
    int rfd = -1, fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    f->hashed = true;
    f->hash = 0;
    /* An O_PATH descriptor (a link's source) reads nothing: it is reopened. */
    if (fl >= 0 && !(fl & O_PATH) && (fl & O_ACCMODE) != O_WRONLY) {
        f->hash = rg_content_hash(fd, f->size);
        return;
    }
    if (fd >= 0) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        rfd = rg_sys_openat(AT_FDCWD, link, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);
    } else {
        rfd = rg_sys_openat(
            req->dirfd, req->path,
            O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (follow ? 0 : O_NOFOLLOW), 0);
    }
    struct stat st;
    if (rfd >= 0 && rg_sys_fstat(rfd, &st) == 0 && st.st_ino == f->ino && st.st_dev == f->dev)
        f->hash = rg_content_hash(rfd, f->size);
    if (rfd >= 0)
        rg_sys_close(rfd);
}

/* What a fresh look found at the file. */
enum rg_moved { RG_MOVED_NOT, RG_MOVED_SAME, RG_MOVED_OTHER };

/* Looks at the file again: has it moved since the last look, and is it
 * still the same file? */
static enum rg_moved look_again(const struct rg_request *req, struct rg_file *f, int fd,
                                bool follow)
{
    struct stat st;
    int r = fd >= 0 ? rg_sys_fstat(fd, &st)
                    : rg_sys_fstatat(req->dirfd, req->path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW);
    if (r != 0)
        return RG_MOVED_NOT;
    struct rg_file now = rg_file_of(&st);
    bool same = now.ino == f->ino && now.dev == f->dev;
    if (same && now.mtime_ns == f->mtime_ns && now.ctime_ns == f->ctime_ns && now.size == f->size)
        return RG_MOVED_NOT;
    now.scope = f->scope;
    *f = now;
    return same ? RG_MOVED_SAME : RG_MOVED_OTHER;
}

/* Looks a would-be refusal takes at one file at most: a file that many
 * siblings keep rewriting can move under a few in a row. */
#define RG_LOOKS_MAX 16

/* How long a would-be refusal follows the name while other files keep
 * taking it. Each is a new question, with looks and waits of its own:
 * threads saving one file by temp file and rename replace it faster than
 * a look can settle, and one pause spent on each left none for the next
 * (t0500.10). Past this, the storm is taken for a refusal, not followed
 * for ever. */
#define RG_REPLACED_NS (5 * RG_RESTAMP_WAIT_NS)

/* The looks of one would-be refusal. */
struct looks {
    int at_file;   /* looks at the file now at the name */
    int waits;     /* pauses for its writers */
    int64_t since; /* when another file first took the name; 0: none has */
};

/* Is the look just taken the last? A look that found another file starts
 * its count again, until the replacements have gone on too long. */
static bool last_look(struct looks *l, enum rg_moved m)
{
    if (m != RG_MOVED_OTHER)
        return ++l->at_file > RG_LOOKS_MAX;
    int64_t now = rg_clock_ns(CLOCK_MONOTONIC);
    if (!l->since)
        l->since = now;
    *l = (struct looks){0, 0, l->since};
    return now - l->since > RG_REPLACED_NS;
}

/* Waits a moment if the look pairs the record's very times with another
 * size, and says whether it did. No file rests so (a size change moves
 * mtime): a truncate is under way, which sets the size before the times,
 * and is not to be taken for a change (t0500, traced). The moment is a
 * restamp's first pause: the truncate is one system call, past its first
 * step already. */
static bool wait_mid_truncate(const struct rg_file *f, const struct rg_record *r)
{
    if (!r->found || r->size == f->size || r->mtime_ns != f->mtime_ns || r->ctime_ns != f->ctime_ns)
        return false;
    struct timespec pause = rg_ns_timespec(RG_RESTAMP_FIRST_NS);
    nanosleep(&pause, NULL);
    return true;
}

/* A hash that failed (the file shrank under it: a sibling truncating it
 * to write) says nothing of the bytes: it is taken again. */
static bool retake_failed_hash(struct rg_file *f)
{
    if (!f->hashed || f->hash != 0)
        return false;
    f->hashed = false;
    return true;
}

/* Only a new name for an unread guarded file pays for this path's room. */
static enum rg_scope new_scope(struct rg_ctx *c, const struct rg_request *req)
{
    char abs[PATH_MAX];
    return rg_scope_of_name(c, req->to_dirfd, req->to_path, false, abs, sizeof abs);
}

bool rg_wait_restamp(const struct rg_record *r, int look)
{
    int64_t ns = r->writers > 0 ? rg_restamp_pause_ns(look) : 0;
    if (ns == 0)
        return false;
    struct timespec pause = rg_ns_timespec(ns);
    nanosleep(&pause, NULL);
    return true;
}

/* A copy onto the backup name of a file the session read, still as it read
 * it (NAME~, .bak, .orig, .old beside NAME): GNU patch copies NAME to
 * NAME.orig when no hunk applies, over last time's, as the rename onto it
 * that sed -i.bak and patch -b make is judged (guard/tier/scope.h):
 * journaled. A read within a tick of NAME's last change is told by its
 * bytes, as the rename's source is. */
static bool backs_up_read(struct rg_ctx *c, const struct rg_request *req, const char *abs)
{
    size_t n = req->op == RG_OP_OPEN ? rg_backup_base_len(abs) : 0;
    char base[PATH_MAX];
    struct stat st;
    if (n == 0 || n >= sizeof base)
        return false;
    memcpy(base, abs, n);
    base[n] = '\0';
    if (rg_sys_fstatat(AT_FDCWD, base, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return false;
    struct rg_file f = rg_file_of(&st);
    struct rg_record r = rg_entry_load(&c->table, rg_entry_for(c, &f, false));
    enum rg_stamp_match m = rg_record_match(&f, &r);
    if (m == RG_STAMP_ASK_BYTES) {
        struct rg_request at = {.dirfd = AT_FDCWD, .path = base};
        rg_take_hash(&at, &f, -1, false);
        m = rg_record_match(&f, &r);
    }
    return m == RG_STAMP_MATCHES;
}

/* The policy's answer once what it asked for is worked out, in the order
 * it asks: the bytes' hash, the reader's lineage, the file's scope, the
 * scope of the new name. abs gets the file's path where the scope needed it. */
static struct rg_decision answer(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f,
                                 int fd, bool follow, struct rg_facts *facts, struct rg_decision d,
                                 char *abs)
{
    if (d.action == RG_NEED_HASH) {
        rg_take_hash(req, f, fd, follow);
        d = rg_decide(req, f, facts);
    }
    if (d.action == RG_NEED_LINEAGE) {
        int32_t reader = (int32_t)(facts->rec.reader & RG_READER_PID_MASK);
        facts->lineage =
            rg_descends(rg_ctx_pid(c), reader) ? RG_LINEAGE_DESCENDS : RG_LINEAGE_OTHER;
        d = rg_decide(req, f, facts);
    }
    if (d.action == RG_NEED_SCOPE) {
        f->scope = rg_scope_locate(c, req->dirfd, req->path, fd, follow, true, abs, PATH_MAX);
        if (f->scope == RG_SCOPE_GUARDED && backs_up_read(c, req, abs))
            f->scope = RG_SCOPE_JOURNALED;
        d = rg_decide(req, f, facts);
    }
    if (d.action == RG_NEED_NEW_SCOPE) {
        f->new_scope = new_scope(c, req);
        d = rg_decide(req, f, facts);
    }
    return d;
}

/* The name a refusal gives the file: the program's own, unless that name
 * leads elsewhere from its working directory, as one relative to another
 * directory's descriptor does (coreutils' `cp f d/` opens "f" in d): the
 * reader would then read the wrong file and retry in vain. Then the path
 * from the working directory, or the absolute one. The supervisor's
 * working directory is not the caller's: it names from the caller's, and
 * keeps the caller's name when that one is gone. */
static const char *shown_name(const struct rg_ctx *c, const struct rg_request *req,
                              const struct rg_file *f, const char *abs, char *cwd, size_t cap)
{
    const char *given = req->shown ? req->shown : req->path;
    int dir;
    if (given[0] == '/' || !abs[0] || !f->exists || !rg_workdir_open(c, &dir, cwd, cap))
        return given;
    struct stat st;
    bool leads = rg_sys_fstatat(dir, given, &st, 0) == 0 && (uint64_t)st.st_dev == f->dev &&
                 (uint64_t)st.st_ino == f->ino;
    rg_workdir_close(dir);
    if (leads)
        return given;
    const char *rel = rg_workdir_rel(abs, cwd);
    return rel ? rel : abs;
}

/* Can the refused writer not read f at all? Then "read it first" is advice
 * it cannot take. Asked of this process's own rights only: a supervisor's
 * are not its tree's. Refusals only. */
static bool unreadable(const struct rg_ctx *c, const struct rg_request *req, const char *abs)
{
    if (c->actor)
        return false;
    int r = abs[0] == '/'             ? rg_sys_faccessat(AT_FDCWD, abs, R_OK)
            : req->path && *req->path ? rg_sys_faccessat(req->dirfd, req->path, R_OK)
                                      : 0;
    return r == -EACCES;
}

/* A refusal or warning, told on stderr and in the log, with what the
 * session knows that makes it clearer: a name it read the file by, or who
 * only scanned it. */
static void report(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f,
                   const struct rg_facts *facts, struct rg_decision d, const char *abs)
{
    struct rg_record was = {0};
    if (d.reason == RG_WHY_UNREAD)
        d.reason = rg_namehint_reason(c, req, abs, f, &was);
    char scanner[16] = "";
    if (d.reason == RG_WHY_SCANNED)
        rg_scanner_name(c->table.hdr, (int32_t)(facts->rec.reader & RG_READER_PID_MASK), scanner);
    char cwd[PATH_MAX];
    struct rg_report rep = {.req = req,
                            .shown_path = shown_name(c, req, f, abs, cwd, sizeof cwd),
                            .abs_path = abs,
                            .file = f,
                            .facts = facts,
                            .decision = d,
                            .scanner = scanner,
                            .was = &was,
                            .unreadable = d.reason == RG_WHY_UNREAD && unreadable(c, req, abs)};
    rg_log_decision(c, &rep);
}

/* The facts of f, whose entry is e, and the pure policy's answer to them.
 * Inline in rg_ask's loop. */
static inline __attribute__((always_inline)) struct rg_decision
look_at(struct rg_ctx *c, const struct rg_request *req, const struct rg_file *f, int fd,
        struct rg_entry *e, struct rg_facts *facts)
{
    rg_ask_facts(c, f, fd, e, facts);
    return rg_decide(req, f, facts);
}

/* The same, finding f's entry (rg_entry_of_write, not added). */
static inline __attribute__((always_inline)) struct rg_decision
first_look(struct rg_ctx *c, const struct rg_request *req, const struct rg_file *f, int fd,
           struct rg_facts *facts)
{
    return look_at(c, req, f, fd, rg_entry_of_write(c, f->dev, f->ino, false), facts);
}

/* Asks the policy, working out the scope only when the answer depends on it,
 * and reports a refusal or warning. Returns the action to carry out.
 * A "changed" answer is only final once a fresh look agrees with the last
 * and no writer of the session is left to restamp: a sibling may finish a
 * write between our fstat and our read of the entry, and a session must
 * never refuse itself. Only would-be refusals pay for this. */
enum rg_action rg_ask(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f, int fd,
                      bool follow)
{
    struct rg_facts facts;
    struct rg_decision d;
    char abs[PATH_MAX]; /* not "= {0}": that clears 4 KiB on every write */
    abs[0] = '\0';
    struct looks l = {0};
    for (;;) {
        d = first_look(c, req, f, fd, &facts);
        if (d.action == RG_ALLOW) /* the common answer: nothing more to ask */
            return RG_ALLOW;
        d = answer(c, req, f, fd, follow, &facts, d, abs);
        /* Writers still counted may be about to restamp: give them a moment
         * (rg_restamp_pause_ns: up to a second in all). The entry names only
         * the last writer, so when it has closed but another is still
         * writing, the policy sees no live writer, and only the wait tells
         * that one from a writer killed mid-write, whose count never comes
         * down. A sibling's scan that read the writer's bytes before its
         * restamp is waited for so too: the restamp makes them the
         * session's own. */
        if (!rg_refusal_may_clear(d.reason, facts.rec.writers))
            break;
        bool waited = facts.rec.writers > 0 ? rg_wait_restamp(&facts.rec, l.waits++)
                                            : wait_mid_truncate(f, &facts.rec);
        /* Final only once a fresh look agrees with the one judged: the
         * record may have overtaken it (a sibling restamped or renamed the
         * file after our fstat, and we lost the CPU in between). */
        enum rg_moved m = look_again(req, f, fd, follow);
        if (last_look(&l, m) || (m == RG_MOVED_NOT && !waited && !retake_failed_hash(f)))
            break;
    }
    if (d.action == RG_WARN || d.action == RG_REFUSE)
        report(c, req, f, &facts, d, abs);
    return d.action;
}

/* Judges a path that is not open: the destination of a rename, the target of
 * truncate or of a spawned child's open. A missing path is a new file. */
enum rg_action rg_ask_path_act(struct rg_ctx *c, const struct rg_request *req, bool follow,
                               struct stat *st, enum rg_scope scope)
{
    if (rg_sys_fstatat(req->dirfd, req->path, st, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0) {
        st->st_mode = 0;
        return RG_ALLOW; /* missing, or an error the real call will report itself */
    }
    struct rg_file f = rg_file_of(st);
    f.scope = scope;
    return rg_ask(c, req, &f, -1, follow);
}

/* The three answers of a change that opens nothing (ask.h). */
static enum rg_action collapsed(enum rg_action a)
{
    return a == RG_REFUSE || a == RG_ALLOW_KEPT ? a : RG_ALLOW;
}

enum rg_action rg_ask_path_in(struct rg_ctx *c, const struct rg_request *req, bool follow,
                              struct stat *st, enum rg_scope scope)
{
    return collapsed(rg_ask_path_act(c, req, follow, st, scope));
}

enum rg_action rg_ask_stat(struct rg_ctx *c, const struct rg_request *req, const struct stat *st)
{
    struct rg_file f = rg_file_of(st);
    return collapsed(rg_ask(c, req, &f, -1, false));
}

enum rg_action rg_ask_path_stat(struct rg_ctx *c, const struct rg_request *req, bool follow,
                                struct stat *st)
{
    return rg_ask_path_in(c, req, follow, st, RG_SCOPE_UNKNOWN);
}

enum rg_action rg_ask_named(struct rg_ctx *c, const struct rg_request *req, struct rg_file *f,
                            const char *abs)
{
    struct rg_facts facts;
    struct rg_decision d = first_look(c, req, f, -1, &facts);
    if (d.action == RG_WARN || d.action == RG_REFUSE)
        report(c, req, f, &facts, d, abs);
    return d.action;
}

int rg_ask_sealed(struct rg_ctx *c, const struct rg_request *req, const struct stat *st)
{
    if (!rg_ctx_sealed(c, st->st_dev, st->st_ino))
        return 0;
    struct rg_file f = rg_file_of(st);
    return rg_ask_named(c, req, &f, c->session_path) == RG_REFUSE ? -EACCES : 0;
}
