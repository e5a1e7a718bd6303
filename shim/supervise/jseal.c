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
#include "supervise/supervise.h"
static const char *journal_of(const struct rg_ctx *c)
{
    return c->sealed_ino && c->table.hdr ? c->table.hdr->journal_dir : "";
}

/* The log, where run found a regular file or nothing (cli/supervise.c):
 * a terminal or /dev/null is no record, and the tree's to write. */
static const char *log_of(const struct rg_ctx *c)
{
    return c->log_sealed && c->table.hdr ? c->table.hdr->log_path : "";
}

/* Which sealed thing the last name judged true in this thread touched: the
 * refusal that follows it says which (the log is no keeper of versions). */
static _Thread_local bool hit_log;

/* Is path in the journal or the log, or a directory that holds one (moving
 * it moves the journal away from where the session keeps and undo looks,
 * the log away from where the supervisor appends)? */
static bool under_either(const char *path, const char *sealed)
{
    return sealed[0] && (rg_path_under(path, sealed) || rg_path_under(sealed, path));
}

static bool touches(const struct rg_ctx *c, const char *path)
{
    hit_log = under_either(path, log_of(c));
    return hit_log || under_either(path, journal_of(c));
}

static bool any_sealed(const struct rg_ctx *c) { return journal_of(c)[0] || log_of(c)[0]; }

/* The path of descriptor fd, in out (PATH_MAX): false if it has none. */
static bool path_of(int fd, char *out)
{
    char link[RG_FD_LINK_MAX];
    rg_fd_link(link, fd);
    ssize_t n = readlink(link, out, PATH_MAX - 1);
    if (n <= 0 || out[0] != '/')
        return false;
    out[n] = '\0';
    return true;
}

bool rg_sv_in_journal(const struct rg_ctx *c, int dirfd, const char *name)
{
    struct rg_sv_jdir seen = RG_SV_JDIR_INIT;
    return rg_sv_in_journal_seen(c, &seen, dirfd, name);
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
bool rg_sv_in_journal_seen(const struct rg_ctx *c, struct rg_sv_jdir *seen, int dirfd,
                           const char *name)
{
    if (!any_sealed(c))
        return false;
    if (name[0] == '/')
        return touches(c, name);
    if (dirfd < 0)
        return false;
    if (seen->fd != dirfd) {
        seen->fd = dirfd;
        seen->named = path_of(dirfd, seen->path);
    }
    if (!seen->named)
        return false;
    size_t n = strlen(seen->path);
    bool in = rg_concat(seen->path + n, sizeof seen->path - n, n > 1 ? "/" : "", name) &&
              touches(c, seen->path);
    seen->path[n] = '\0';
    return in;
}

bool rg_sv_fd_in_journal(const struct rg_ctx *c, int fd)
{
    char path[PATH_MAX];
    return any_sealed(c) && path_of(fd, path) && touches(c, path);
}

int rg_sv_journal_refuse(struct rg_sv_call *call, const struct rg_request *req,
                         const struct stat *st)
{
    struct rg_file f = {.in_journal = true};
    if (st && st->st_mode)
        f = rg_file_of(st), f.in_journal = true;
    f.in_log = hit_log;
    rg_ask(call->ctx, req, &f, -1, false);
    return -EACCES;
}
