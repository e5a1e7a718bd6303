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
    int r = f->path
                ? fstatat(f->dirfd, f->path, st, f->flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
                : fstat(f->dirfd, st);
    return r == 0 && S_ISREG(st->st_mode);
}

/* Does the session know these bytes: its record is of this very stamp, or
 * one of its processes is writing the file right now? A record that only the
 * bytes could confirm is left alone: the decision hashes them when it
 * matters, and a metadata call is no reason to read a file. */
static bool known(struct rg_ctx *c, const struct stat *st, struct rg_entry **e,
                  struct rg_record *rec)
{
    struct rg_file f = rg_file_of(st);
    *e = rg_entry_for(c, &f, false);
    if (!*e)
        return false;
    *rec = rg_entry_load(&c->table, *e);
    if (rg_record_match(&f, rec) == RG_STAMP_MATCHES)
        return true;
    if (rec->writers == 0 || !rg_pid_holds(rec->writer_pid, f.dev, f.ino))
        return false;
    /* Known as the session's own write: the record is of bytes from before
     * it (or of an earlier file on a reused inode), so its hash must not
     * vouch for the bytes now, or the session's next write is "changed". */
    rec->hash = 0;
    rec->reader = 0;
    return true;
}

/* Only the metadata may have moved: a size or inode that moved too, or an
 * mtime the call does not set, is another process's write in between, which
 * stays unknown. */
static bool only_meta(const struct stat *before, const struct stat *after, bool sets_mtime)
{
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
    default:
        *call = path ? (struct rg_meta_call){SYS_fchmodat, {dirfd, p, (long)sc->mode}, false}
                     : (struct rg_meta_call){SYS_fchmod, {dirfd, (long)sc->mode}, false};
        break;
    }
}

long rg_guard_meta(struct rg_ctx *c, const struct rg_meta_file *f, const struct rg_meta_call *call)
{
    struct stat before, after;
    struct rg_entry *e = NULL;
    struct rg_record rec = {0};
    const long *a = call->args;
    bool mine =
        c->table_state != RG_TABLE_BROKEN && look(f, &before) && known(c, &before, &e, &rec);
    long r = rg_syscall6(call->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (r != 0 || !mine || !look(f, &after) || !only_meta(&before, &after, call->sets_mtime))
        return r;
    struct rg_stamp now = rg_stamp_of(&after);
    now.hash = rec.hash;     /* the bytes it describes did not change */
    now.reader = rec.reader; /* nor did who looked at them, or how */
    bool own = atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE;
    rg_entry_stamp(&c->table, e, &now, own || rec.writers > 0, rg_now_ns());
    return r;
}
