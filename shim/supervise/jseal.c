/* Under --strict the session's journal is out of the tree's reach, as its
 * table is. The journal is what makes a removal undoable, which is why a
 * --strict tree may remove files it never read: a tree that could also
 * remove, cut, move or rewrite what keeps them could destroy a file for
 * good in two steps. The supervisor keeps versions with its own calls,
 * which the filter never sees; only the tree's are judged here. The session
 * log is sealed the same way, by path (its lines are the record of what the
 * tree was refused), while the supervisor's own appends, its own calls, go
 * on. */
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "core/text.h"
#include "guard/ask.h"
#include "os/procfd.h"
#include "supervise/supervise.h"
static const char *journal_of(const struct rg_ctx *c)
{
    return c->sealed_ino && c->table.hdr ? c->table.hdr->journal_dir : "";
}

/* The log, where run found a regular file or nothing (cli/launch/supervise.c):
 * a terminal or /dev/null is no record, and the tree's to write. */
static const char *log_of(const struct rg_ctx *c)
{
    return c->log_sealed && c->table.hdr ? c->table.hdr->log_path : "";
}

/* Is path in the journal or the log, or a directory that holds one (moving
 * it moves the journal away from where the session keeps and undo looks,
 * the log away from where the supervisor appends)? */
static bool under(const char *path, const char *sealed)
{
    return sealed[0] && (rg_path_under(path, sealed) || rg_path_under(sealed, path));
}

/* The log first: its refusal says so (the log is no keeper of versions). */
static enum rg_sv_sealed touches(const struct rg_ctx *c, const char *path)
{
    return under(path, log_of(c))       ? RG_SV_LOG
           : under(path, journal_of(c)) ? RG_SV_JOURNAL
                                        : RG_SV_UNSEALED;
}

static bool any_sealed(const struct rg_ctx *c) { return journal_of(c)[0] || log_of(c)[0]; }

enum rg_sv_sealed rg_sv_sealed_at(const struct rg_ctx *c, int dirfd, const char *name)
{
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    return rg_sv_sealed_at_seen(c, &seen, dirfd, name);
}

/* A rename's two names in one directory share its one descriptor
 * (guard/anchor.h), and the rename acts on that descriptor, never on the
 * path read here: a second reading, made after the first and still before
 * the rename, would catch no move the first misses, only one a moment
 * later, while the rename is later still. And no move changes the answer:
 * the tree's own renames into the journal, or of a directory holding it,
 * are refused here, and it may make no mount namespace (ns.c). So one
 * reading judges both names. seen lives for one call only, while every
 * descriptor it may name is held open: its number cannot be reused. */
enum rg_sv_sealed rg_sv_sealed_at_seen(const struct rg_ctx *c, struct rg_sv_jdir *seen, int dirfd,
                                       const char *name)
{
    if (!any_sealed(c))
        return RG_SV_UNSEALED;
    if (name[0] == '/')
        return touches(c, name);
    if (dirfd < 0)
        return RG_SV_UNSEALED;
    if (seen->fd != dirfd) {
        seen->fd = dirfd;
        seen->named = rg_fd_path(dirfd, seen->path, sizeof seen->path) >= 0;
    }
    if (!seen->named)
        return RG_SV_UNSEALED;
    size_t n = strlen(seen->path);
    enum rg_sv_sealed what = RG_SV_UNSEALED;
    if (rg_concat(seen->path + n, sizeof seen->path - n, n > 1 ? "/" : "", name))
        what = touches(c, seen->path);
    seen->path[n] = '\0';
    return what;
}

enum rg_sv_sealed rg_sv_sealed_fd(const struct rg_ctx *c, int fd)
{
    char path[PATH_MAX];
    return any_sealed(c) && rg_fd_path(fd, path, sizeof path) >= 0 ? touches(c, path)
                                                                   : RG_SV_UNSEALED;
}

/* The path req names, for the log line: req->dirfd is the supervisor's own
 * descriptor of the target's directory, or AT_FDCWD with an absolute path.
 * "" where it has none. */
static void named_path(const struct rg_request *req, char out[PATH_MAX])
{
    char dir[PATH_MAX];
    bool found;
    if (req->path[0] == '/')
        found = rg_path_join(out, PATH_MAX, "/", req->path);
    else
        found = req->dirfd >= 0 && rg_fd_path(req->dirfd, dir, sizeof dir) >= 0 &&
                rg_path_join(out, PATH_MAX, dir, req->path);
    if (!found)
        out[0] = '\0';
}

int rg_sv_sealed_refuse(struct rg_sv_call *call, const struct rg_request *req,
                        const struct stat *st, enum rg_sv_sealed what)
{
    struct rg_file f = {0};
    if (st && st->st_mode)
        f = rg_file_of(st);
    f.in_journal = true;
    f.in_log = what == RG_SV_LOG;
    f.in_table = what == RG_SV_TABLE;
    char abs[PATH_MAX];
    named_path(req, abs);
    rg_ask_named(call->ctx, req, &f, abs);
    return -EACCES;
}
