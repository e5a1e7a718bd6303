#include "guard/wopen.h"
#include <errno.h>
#include <fcntl.h>

#include "guard/ask.h"
#include "guard/fdmap.h"
#include "guard/journal/keep.h"
#include "guard/log.h"
#include "guard/restamp.h"
#include "guard/sysopen.h"
#include "os/sys.h"
/* A write the process opened onto descriptor 2 (stderr was closed) is its
 * data; the supervisor's descriptors are its own, never the target's. */
static inline __attribute__((always_inline)) void note_on_stderr(struct rg_ctx *c, int fd,
                                                                 const struct stat *st)
{
    if (__builtin_expect(fd == STDERR_FILENO, 0) && !c->actor)
        rg_log_stderr_opened(c, st->st_dev, st->st_ino);
}

/* Inline: every allowed write counts its writer here. e: the file's entry
 * as the judgement found it, or NULL to find it (added if new). */
static inline __attribute__((always_inline)) void
note_write_entry(struct rg_ctx *c, int fd, const struct stat *st, void *stream, struct rg_entry *e)
{
    if (fd < 0 || !S_ISREG(st->st_mode))
        return;
    note_on_stderr(c, fd, st);
    struct rg_file f = {.dev = st->st_dev, .ino = st->st_ino};
    if (!e)
        e = rg_entry_of_write(c, f.dev, f.ino, true);
    int32_t pid = rg_ctx_pid(c);
    if (e)
        rg_entry_writer_open(e, pid);
    if (c->table.hdr)
        atomic_fetch_add_explicit(&c->table.hdr->writes_allowed, 1, memory_order_relaxed);
    rg_fd_track(c, fd, f.dev, f.ino, pid, stream);
}

static inline __attribute__((always_inline)) void
note_write_stat(struct rg_ctx *c, int fd, const struct stat *st, void *stream)
{
    note_write_entry(c, fd, st, stream, NULL);
}

void rg_note_write(struct rg_ctx *c, int fd, void *stream)
{
    struct stat st;
    if (fd >= 0 && rg_sys_fstat(fd, &st) == 0)
        note_write_stat(c, fd, &st, stream);
}

/* Rounds of open_untruncated's race with a file that comes and goes between
 * its two opens. Only a process deleting and creating the name in a tight
 * loop loses three rounds; then a plain O_CREAT open, which counts as new
 * only if the file it finds is empty (maybe_fresh). */
enum { RG_UNTRUNCATED_TRIES = 3 };

/* Opens the target of a write without truncating it, creating it only if it
 * does not exist. *fresh says the file is new: there is nothing to lose.
 * O_CREAT|O_EXCL makes the "does not exist" answer atomic; the loop covers a
 * file appearing in between, and a dangling symlink, which O_EXCL refuses but
 * a plain O_CREAT follows to create its target. */
static int open_untruncated(const struct rg_request *req, bool *fresh, bool *maybe_fresh)
{
    int flags = req->flags & ~(O_TRUNC | O_CREAT);
    for (int tries = 0; tries < RG_UNTRUNCATED_TRIES; tries++) {
        int fd = rg_open_paused(req, flags);
        if (fd != -ENOENT || !(req->flags & O_CREAT))
            return fd;
        fd = rg_open_paused(req, req->flags | O_EXCL);
        if (fd != -EEXIST) {
            *fresh = fd >= 0;
            return fd;
        }
    }
    *maybe_fresh = true;
    return rg_open_paused(req, req->flags & ~O_TRUNC);
}

/* O_TRUNC, applied only once the check has passed, and only once fd counts
 * as a writer: a sibling must never see the emptied file and no writer. */
static int truncate_opened(struct rg_ctx *c, const struct rg_request *req, int fd, uint64_t dev,
                           uint64_t ino)
{
    if ((req->flags & O_ACCMODE) != O_RDONLY) {
        int r = rg_sys_ftruncate(fd, 0);
        if (r == 0)
            return fd;
        rg_note_close(c, fd);
        rg_sys_close(fd);
        return r;
    }
    /* O_RDONLY|O_TRUNC: ftruncate needs a writable descriptor, so reopen the
     * way the program asked and keep it only if it is the file we checked. */
    int fd2 = rg_open_paused(req, req->flags & ~O_CREAT);
    struct stat st;
    if (fd2 >= 0 && (rg_sys_fstat(fd2, &st) != 0 || st.st_ino != ino || st.st_dev != dev)) {
        rg_sys_close(fd2);
        fd2 = -EAGAIN;
    }
    if (fd2 >= 0)
        note_write_stat(c, fd2, &st, NULL);
    rg_note_close(c, fd);
    rg_sys_close(fd);
    return fd2;
}

/* A timestamp-only open of a file the session may not write: a read-only
 * descriptor on the same inode lets futimens work and any write fail. It is
 * not a read, so nothing is recorded. */
static int reopen_read_only(const struct rg_request *req, const struct rg_file *f)
{
    int flags = (req->flags & ~(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)) | O_RDONLY;
    int fd = rg_open_paused(req, flags);
    struct stat st;
    if (fd >= 0 && (rg_sys_fstat(fd, &st) != 0 || st.st_ino != f->ino || st.st_dev != f->dev)) {
        rg_sys_close(fd);
        return -EACCES;
    }
    return fd;
}

/* Does this process hold a descriptor open that it appends to f through?
 * A change by another program meanwhile is taken for the session's own,
 * as for any write. Cold: only an append whose file has no append stamp
 * of its state comes here. */
static __attribute__((noinline, cold)) bool holds_append(struct rg_ctx *c, const struct rg_file *f)
{
    for (int fd = 0; fd < RG_FDMAP_SIZE; fd++)
        if (atomic_load_explicit(&c->fds[fd].ino, memory_order_relaxed) == f->ino &&
            c->fds[fd].dev == (uint32_t)f->dev && c->fds[fd].opener == RG_OPENER_APPEND)
            return true;
    return false;
}

/* Did this process append to f before, and is the file as it left it
 * (append_look) or still held for appending? A change by another program
 * in between is bytes the journal never saw, which this append's
 * descriptor could cut: it is kept. Not asked
 * for the supervisor, whose context serves every process it traps: there
 * it would be "did any", which the append stamp answers. Nor is a forked
 * child (`echo a >> f` in the shell, then `cmd >> f` in its child) the
 * process that appended. */
static bool appended_before(struct rg_ctx *c, const struct rg_file *f, const struct stat *st)
{
    return !c->actor && atomic_load_explicit(&c->append_ino, memory_order_relaxed) == f->ino &&
           atomic_load_explicit(&c->append_dev, memory_order_relaxed) == f->dev &&
           atomic_load_explicit(&c->append_pid, memory_order_relaxed) == rg_ctx_pid(c) &&
           (atomic_load_explicit(&c->append_look, memory_order_relaxed) == rg_append_look(st) ||
            holds_append(c, f));
}

/* Is the file as st describes it what the journal kept for an earlier
 * append of the session's, or what its appends made of that since (the
 * append stamp, core/table.h)? Then this append need not keep it again. */
static bool append_kept(struct rg_ctx *c, const struct rg_file *f, const struct stat *st)
{
    struct rg_entry *e = rg_entry_for(c, f, false);
    struct rg_stamp now = rg_stamp_of(st);
    return e && rg_entry_appended_as(e, &now);
}

/* A write let through without a read (--allow-append) must not leave a
 * record behind: the file stays unread, and a stale record would be revived
 * by a restamp of an inherited descriptor. Where the journal holds the
 * file's bytes (kept: by this append, or by an earlier one whose stamp the
 * file still has) the entry gets the append stamp instead, and fd a slot
 * that moves it on when let go (guard/restamp.c), so that the session's
 * next process to append keeps nothing more. Either way the process
 * remembers it appended to f (appended_before). */
static void leave_unread(struct rg_ctx *c, int fd, const struct rg_file *f, const struct stat *st,
                         bool kept)
{
    int32_t me = rg_ctx_pid(c);
    atomic_store_explicit(&c->append_look, rg_append_look(st), memory_order_relaxed);
    atomic_store_explicit(&c->append_dev, f->dev, memory_order_relaxed);
    atomic_store_explicit(&c->append_ino, f->ino, memory_order_relaxed);
    atomic_store_explicit(&c->append_pid, me, memory_order_relaxed);
    struct rg_entry *e = rg_entry_for(c, f, kept);
    if (!e)
        return;
    if (!kept) {
        rg_entry_forget(e);
        return;
    }
    struct rg_stamp now = rg_stamp_of(st);
    rg_entry_append_begin(e, &now, me);
    rg_fd_track(c, fd, f->dev, f->ino, RG_OPENER_APPEND, NULL);
}

void rg_open_write_made(const struct rg_request *req, struct rg_write_open *w)
{
    /* Field by field: a compound literal would clear st on every write. */
    w->fd = -1;
    w->created = w->fresh = w->maybe_fresh = w->stated = false;
    /* O_EXCL creates or fails, and O_TMPFILE has no name: neither can
     * overwrite anything. */
    if ((req->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
        (req->flags & O_TMPFILE) == O_TMPFILE) {
        w->created = true;
        w->fd = rg_open_paused(req, req->flags);
        return;
    }
    w->fd = open_untruncated(req, &w->fresh, &w->maybe_fresh);
}

/* An allowed write: counted as a writer, then truncated. Inline in both
 * halves' callers. */
static inline __attribute__((always_inline)) int allowed(struct rg_ctx *c,
                                                         const struct rg_request *req, int fd,
                                                         const struct stat *st, bool fresh,
                                                         struct rg_entry *e)
{
    note_write_entry(c, fd, st, NULL, e);
    if (!fresh && (req->flags & O_TRUNC) && S_ISREG(st->st_mode))
        fd = truncate_opened(c, req, fd, st->st_dev, st->st_ino);
    return fd;
}

/* Is the file st describes, whose entry is e, the session's own write as
 * it stands? Then the policy allows it at its first look and the journal
 * keeps nothing, as judged_at_once would find (core/policy.h,
 * rg_entry_own_settled), with no facts built: the write-open of a file
 * the session wrote. */
static inline __attribute__((always_inline)) bool
own_at_once(const struct rg_ctx *c, const struct stat *st, const struct rg_entry *e)
{
    struct rg_stamp now = rg_stamp_of(st);
    return e && c->read_ttl_ns <= 0 && !rg_ctx_sealed(c, st->st_dev, st->st_ino) &&
           !rg_ctx_own_table(c, st->st_dev, st->st_ino) && rg_entry_own_settled(&c->table, e, &now);
}

/* Does the policy allow the write of the file st describes at its first
 * look, and does rg_guard_opened_write's test of what to keep find
 * nothing, on the record the judgement loaded? Out of line: the first
 * write of a file read, once per file, where own_at_once answers every
 * later one. */
static __attribute__((noinline)) bool judged_at_once(struct rg_ctx *c, const struct rg_request *req,
                                                     const struct stat *st, int fd,
                                                     struct rg_entry *e)
{
    struct rg_file f = rg_file_of(st);
    struct rg_facts facts;
    return rg_ask_allows_at_once(c, req, &f, fd, e, &facts) &&
           (!f.regular || rg_journal_keeps_nothing(c, &f, &facts));
}

bool rg_guard_write_at_once(struct rg_ctx *c, const struct rg_request *req, struct rg_write_open *w)
{
    int fd = w->fd;
    if (w->created) {
        if (fd >= RG_FDMAP_SIZE)
            return false;
        rg_note_write(c, fd, NULL);
        return true;
    }
    /* A descriptor above the fast slots is tracked under a lock, and
     * O_RDONLY|O_TRUNC's reopen may return one: both inside. */
    if (fd < 0 || fd >= RG_FDMAP_SIZE || (req->flags & (O_ACCMODE | O_TRUNC)) == O_TRUNC ||
        rg_sys_fstat(fd, &w->st) != 0)
        return false;
    w->stated = true;
    const struct stat *st = &w->st;
    bool fresh = w->fresh || (w->maybe_fresh && st->st_size == 0);
    struct rg_entry *e = NULL;
    if (!fresh) {
        e = rg_entry_of_write(c, st->st_dev, st->st_ino, false);
        if (!own_at_once(c, st, e) && !judged_at_once(c, req, st, fd, e))
            return false;
    }
    w->fd = allowed(c, req, fd, st, fresh, e);
    return true;
}

/* The journal keeps the bytes of the regular file st describes before the
 * write act lets through goes ahead, and may turn act into a refusal when
 * it cannot. An append let through unread is kept too: its holder can take
 * O_APPEND off (fcntl F_SETFL), ftruncate or punch holes through the
 * very descriptor, and nothing would see that. Once per session while
 * only its appends change the file (the append stamp), and once per
 * process: its later appends would keep a longer copy each time, and
 * what it destroys past the first is mostly its own appends. *kept says
 * whether the journal holds an unread append's file (leave_unread). */
static enum rg_action keep_first(struct rg_ctx *c, const struct rg_request *req, int fd,
                                 bool follow, const struct stat *st, const struct rg_file *f,
                                 enum rg_action act, bool *kept)
{
    if (act != RG_ALLOW_UNTRACKED)
        return rg_journal_keep(c, req, (req->flags & O_TRUNC) ? "truncate" : "write", fd, follow,
                               st, act, NULL);
    *kept = append_kept(c, f, st);
    if (*kept || appended_before(c, f, st))
        return act;
    return rg_journal_keep_append(c, req, fd, follow, st, act, kept);
}

/* A refused write changes nothing: fd, opened untruncated, is closed. The
 * touch case (RG_READ_ONLY) gets a read-only descriptor on the inode
 * judged instead. */
static int refused(struct rg_ctx *c, const struct rg_request *req, int fd, const struct rg_file *f,
                   enum rg_action act)
{
    rg_sys_close(fd);
    if (act == RG_REFUSE)
        return -EACCES;
    fd = reopen_read_only(req, f);
    rg_fd_track(c, fd, f->dev, f->ino, RG_OPENER_STANDIN, NULL);
    return fd;
}

int rg_guard_opened_write(struct rg_ctx *c, const struct rg_request *req,
                          const struct rg_write_open *w)
{
    return rg_guard_opened_write_stat(c, req, w, NULL);
}

int rg_guard_opened_write_stat(struct rg_ctx *c, const struct rg_request *req,
                               const struct rg_write_open *w, struct stat *out)
{
    int fd = w->fd;
    /* Set here as well as through sp: cppcheck does not follow sp to mine
     * and would call it used uninitialised. */
    struct stat mine;
    mine.st_mode = 0;
    struct stat *sp = out ? out : &mine;
    sp->st_mode = 0;
    if (w->created) {
        if (fd >= 0 && rg_sys_fstat(fd, sp) == 0)
            note_write_stat(c, fd, sp, NULL);
        return fd;
    }
    bool fresh = w->fresh;
    if (w->stated)
        *sp = w->st;
    else if (fd < 0 || rg_sys_fstat(fd, sp) != 0)
        return fd;
    struct rg_file f = rg_file_of(sp);
    if (w->maybe_fresh && sp->st_size == 0)
        fresh = true;
    bool follow = !(req->flags & O_NOFOLLOW);
    enum rg_action act = fresh ? RG_ALLOW : rg_ask(c, req, &f, fd, follow);
    bool kept = false;
    if (!fresh && f.regular && act != RG_REFUSE && act != RG_READ_ONLY)
        act = keep_first(c, req, fd, follow, sp, &f, act, &kept);
    if (act == RG_REFUSE || act == RG_READ_ONLY)
        return refused(c, req, fd, &f, act);
    if (act == RG_ALLOW_UNTRACKED) {
        leave_unread(c, fd, &f, sp, kept);
        note_on_stderr(c, fd, sp);
        return fd;
    }
    return allowed(c, req, fd, sp, fresh, NULL);
}
