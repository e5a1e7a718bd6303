#include "guard/meta.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "core/syscall.h"
#include "guard/ask.h"
#include "os/clock.h"
#include "os/procfd.h"
#include "os/sys.h"

static bool look(const struct rg_meta_file *f, struct stat *st)
{
    int r = f->path ? rg_sys_fstatat(f->dirfd, f->path, st,
                                     f->flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
                    : rg_sys_fstat(f->dirfd, st);
    return r == 0 && S_ISREG(st->st_mode);
}

/* What the session's record says of the file as seen, the caller's own
 * look at it (the journal's fstat of the descriptor the call goes by), with
 * no writer or act of the session counted on it since, as none can then be
 * about to restamp it:
 * - SEEN_UNKNOWN: no record of that state, so a look now cannot match one
 *   either, as ctime only moves forward (core/policy.h); git checkout's
 *   common case, an inode number the table still holds from a file removed
 *   earlier;
 * - SEEN_KNOWN: a record of that very stamp, which a look now could only
 *   confirm: a sibling's change since would still be counted, or would
 *   have restamped it with a later ctime. Another program's change since
 *   is what the look after the call tells (only_meta), as it tells one
 *   made between a fresh look and the call; the call moves ctime itself,
 *   so only a change of mtime or size was ever told apart there. A file
 *   the session read before it is replaced: git checkout's racily clean
 *   files, an editor's save over the file it opened;
 * - SEEN_LOOK: anything else, which a fresh look decides.
 * Each of the first two spares an fstat of the file per replaced file. */
enum seen_says { SEEN_UNKNOWN, SEEN_KNOWN, SEEN_LOOK };

static enum seen_says seen_says(struct rg_ctx *c, const struct stat *seen, struct rg_entry **e,
                                struct rg_record *rec)
{
    if (!S_ISREG(seen->st_mode))
        return SEEN_UNKNOWN;
    struct rg_file f = rg_file_of(seen);
    *e = rg_entry_for(c, &f, false);
    if (!*e)
        return SEEN_UNKNOWN;
    *rec = rg_entry_load(&c->table, *e);
    if (rec->writers > 0)
        return SEEN_LOOK;
    if (!rec->found || rec->ctime_ns < f.ctime_ns)
        return SEEN_UNKNOWN;
    return rec->mtime_ns == f.mtime_ns && rec->ctime_ns == f.ctime_ns && rec->size == f.size
               ? SEEN_KNOWN
               : SEEN_LOOK;
}

/* Does the session's last writer of the file still hold it for writing? A
 * call made through a writable descriptor of this process (tar and cp -p
 * set each file's times and mode through the descriptor they wrote it by)
 * answers itself: look() has just found the file behind it, which is what
 * a scan of /proc/PID/fd would find, at the cost of a stat per open
 * descriptor. */
static bool writer_holds(struct rg_ctx *c, const struct rg_meta_file *mf,
                         const struct rg_record *rec, const struct rg_file *f)
{
    /* Only a descriptor open for writing, as the scan counts: one only
     * read from says nothing of a count a killed writer left. */
    int fl = mf->path ? -1 : fcntl(mf->dirfd, F_GETFL);
    if (fl >= 0 && !(fl & O_PATH) && (fl & O_ACCMODE) != O_RDONLY &&
        rec->writer_pid == rg_ctx_pid(c))
        return true;
    return rg_pid_holds(rec->writer_pid, f->dev, f->ino, -1);
}

/* Does the session know these bytes (as st, filled here, has them): its
 * record is of this very stamp, or one of its processes is writing the file
 * right now? A record that only the bytes could confirm is left alone: the
 * decision hashes them when it matters, and a metadata call is no reason to
 * read a file. A sibling's own write or act still to restamp is waited for:
 * this call's restamp must come after it, or the file is left changed. */
static bool known(struct rg_ctx *c, const struct rg_meta_file *mf, const struct stat *seen,
                  struct stat *st, struct rg_entry **e, struct rg_record *rec, bool *writing)
{
    *writing = false;
    enum seen_says says = seen ? seen_says(c, seen, e, rec) : SEEN_LOOK;
    if (says == SEEN_KNOWN)
        *st = *seen;
    if (says != SEEN_LOOK)
        return says == SEEN_KNOWN;
    struct rg_file f;
    for (int n = 0;; n++) {
        if (!look(mf, st))
            return false;
        f = rg_file_of(st);
        *e = rg_entry_for(c, &f, false);
        if (!*e)
            return false;
        *rec = rg_entry_load(&c->table, *e);
        /* This very stamp, even where a racy read left the bytes to decide:
         * the restamp keeps the read's time and hash, so they still do. */
        if (rec->found && rec->mtime_ns == f.mtime_ns && rec->ctime_ns == f.ctime_ns &&
            rec->size == f.size)
            return true;
        if (rec->writers > 0 && writer_holds(c, mf, rec, &f))
            break;
        if (!rg_wait_restamp(rec, n))
            return false;
    }
    /* Known as the session's own write: the record is of bytes from before
     * it (or of an earlier file on a reused inode), so its hash must not
     * vouch for the bytes now, or the session's next write is "changed". */
    rec->hash = 0;
    rec->reader = 0;
    *writing = true;
    return true;
}

/* Only the metadata may have moved: a size or inode that moved too, or an
 * mtime the call does not set, is another process's write in between, which
 * stays unknown. Unless a writer of the session was at work: its bytes are
 * the session's own, as the policy takes them while it is counted, and its
 * restamp may have come before this call moved ctime. */
static bool only_meta(const struct stat *before, const struct stat *after, bool sets_mtime,
                      bool writing)
{
    if (writing)
        return after->st_ino == before->st_ino && after->st_dev == before->st_dev;
    return after->st_ino == before->st_ino && after->st_dev == before->st_dev &&
           after->st_size == before->st_size &&
           (sets_mtime || (after->st_mtim.tv_sec == before->st_mtim.tv_sec &&
                           after->st_mtim.tv_nsec == before->st_mtim.tv_nsec));
}

void rg_meta_of(const struct rg_syscall *sc, int dirfd, const char *path, const void *times,
                struct rg_meta_file *f, struct rg_meta_call *call)
{
    long p = (long)path;
    *f = (struct rg_meta_file){dirfd, path, sc->flags};
    switch (sc->nr) {
    case SYS_utimensat:
        *call = (struct rg_meta_call){SYS_utimensat, {dirfd, p, (long)times, sc->flags}, true};
        break;
    case SYS_fchown:
    case SYS_fchownat:
#ifdef SYS_chown
    case SYS_chown:
    case SYS_lchown:
#endif
        *call =
            path
                ? (struct rg_meta_call){SYS_fchownat,
                                        {dirfd, p, (int)sc->owner, (int)sc->group, sc->flags},
                                        false}
                : (struct rg_meta_call){SYS_fchown, {dirfd, (int)sc->owner, (int)sc->group}, false};
        break;
    default: /* the chmods; only fchmodat2 has flags */
        *call =
            !path ? (struct rg_meta_call){SYS_fchmod, {dirfd, (long)sc->mode}, false}
            : sc->flags
                ? (struct rg_meta_call){SYS_fchmodat2, {dirfd, p, (long)sc->mode, sc->flags}, false}
                : (struct rg_meta_call){SYS_fchmodat, {dirfd, p, (long)sc->mode}, false};
        break;
    }
}

/* Did a write of the session restamp the file between before and this
 * call's change (a sibling that closed it meanwhile)? Its bytes are the
 * ones after shows, only its ctime is older than this call's move. */
static bool written_since(struct rg_ctx *c, const struct rg_entry *e, const struct stat *before,
                          const struct stat *after)
{
    struct rg_record now = rg_entry_load(&c->table, e);
    struct rg_stamp b = rg_stamp_of(before), a = rg_stamp_of(after);
    return now.found && (atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE) &&
           now.ctime_ns > b.ctime_ns && now.ctime_ns <= a.ctime_ns && now.mtime_ns == a.mtime_ns &&
           now.size == a.size;
}

/* writing: the stamp is of a live writer's bytes, as of now; otherwise of
 * the bytes the record describes, as of its read. */
static void restamp(struct rg_ctx *c, struct rg_entry *e, const struct rg_record *rec,
                    const struct stat *after, bool writing)
{
    struct rg_stamp now = rg_stamp_of(after);
    now.hash = rec->hash;     /* the bytes it describes did not change */
    now.reader = rec->reader; /* nor did who looked at them, or how */
    bool own = atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE;
    rg_entry_stamp(&c->table, e, &now, own || rec->writers > 0,
                   writing ? rg_now_ns() : rec->read_ns);
}

/* Records the file as the call left it, if only the call (or a writer of
 * the session) moved it since before. */
static void settle(struct rg_ctx *c, struct rg_entry *e, struct rg_record *rec,
                   const struct stat *before, const struct stat *after, bool sets_mtime,
                   bool writing)
{
    if (!writing && !only_meta(before, after, sets_mtime, false) &&
        written_since(c, e, before, after)) {
        writing = true;
        rec->hash = 0;
        rec->reader = 0;
    }
    if (only_meta(before, after, sets_mtime, writing))
        restamp(c, e, rec, after, writing);
}

long rg_guard_meta(struct rg_ctx *c, const struct rg_meta_file *f, const struct rg_meta_call *call)
{
    return rg_guard_meta_seen(c, f, call, NULL);
}

long rg_guard_meta_seen(struct rg_ctx *c, const struct rg_meta_file *f,
                        const struct rg_meta_call *call, const struct stat *seen)
{
    struct stat before, after;
    struct rg_entry *e = NULL;
    struct rg_record rec = {0};
    const long *a = call->args;
    bool writing = false;
    bool mine = c->table_state != RG_TABLE_BROKEN && known(c, f, seen, &before, &e, &rec, &writing);
    /* The call moves ctime before the restamp below records it: a sibling
     * that looks in between waits for it (core/table.h). */
    if (mine)
        rg_entry_act_begin(e);
    long r = rg_syscall6(call->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (mine && r == 0 && look(f, &after))
        settle(c, e, &rec, &before, &after, call->sets_mtime, writing);
    if (mine)
        rg_entry_writer_close(e);
    return r;
}
