#include "guard/times.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "guard/ask.h"
#include "os/clock.h"
#include "os/procfd.h"
#include "os/sys.h"

static bool look(int dirfd, const char *path, int flags, struct stat *st)
{
    int r = path ? fstatat(dirfd, path, st, flags & AT_SYMLINK_NOFOLLOW) : fstat(dirfd, st);
    return r == 0 && S_ISREG(st->st_mode);
}

/* Does the session know these bytes: its record is of this very stamp, or
 * one of its processes is writing the file right now? */
static bool known(struct rg_ctx *c, const struct stat *st, struct rg_entry **e,
                  struct rg_record *rec)
{
    struct rg_file f = rg_file_of(st);
    *e = rg_entry_for(c, &f, false);
    if (!*e)
        return false;
    *rec = rg_entry_load(&c->table, *e);
    if (rec->writers > 0 && rg_pid_holds(rec->writer_pid, f.dev, f.ino))
        return true;
    return rec->found && rec->mtime_ns == f.mtime_ns && rec->size == f.size;
}

long rg_guard_utimens(struct rg_ctx *c, int dirfd, const char *path, const struct timespec ts[2],
                      int flags)
{
    struct stat before, after;
    struct rg_entry *e = NULL;
    struct rg_record rec = {0};
    bool mine = look(dirfd, path, flags, &before) && known(c, &before, &e, &rec);
    long r = rg_syscall6(SYS_utimensat, dirfd, (long)path, (long)ts, flags, 0, 0);
    /* Only the stamp may have moved: a size or inode that moved too is
     * another process's write in between, which stays unknown. */
    if (r != 0 || !mine || !look(dirfd, path, flags, &after) || after.st_ino != before.st_ino ||
        after.st_dev != before.st_dev || after.st_size != before.st_size)
        return r;
    struct rg_stamp now = rg_stamp_of(&after);
    now.hash = rec.hash; /* the bytes it describes did not change */
    bool own = atomic_load_explicit(&e->gen, memory_order_relaxed) & RG_GEN_WRITE;
    rg_entry_stamp(&c->table, e, &now, own || rec.writers > 0, rg_now_ns());
    return r;
}
