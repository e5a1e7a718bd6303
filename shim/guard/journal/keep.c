#include "guard/journal/keep.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>

#include "core/outputs.h"
#include "core/table.h"
#include "core/text.h"
#include "guard/ask.h"
#include "guard/journal/copy.h"
#include "guard/journal/index.h"
#include "guard/journal/link.h"
#include "guard/tier/scope.h"
#include "os/clock.h"
#include "os/errname.h"
#include "os/procfd.h"
#include "os/sys.h"
/* rg_journal_owns_as of the file st describes, by its entry as it is now;
 * fd: the descriptor being judged (or -1), which says nothing of a writer
 * at work. Inline: keep() asks for every allowed write judged inside. */
static inline bool own_bytes(struct rg_ctx *c, const struct stat *st, int fd)
{
    struct rg_entry *e = rg_entry_of_write(c, st->st_dev, st->st_ino, false);
    if (!e)
        return false;
    struct rg_record r = rg_entry_load(&c->table, e);
    bool writer_alive = r.writers > 0 && rg_writer_holds(r.writer_pid, e->dev, e->ino, fd);
    int64_t mtime = rg_timespec_ns(&st->st_mtim), ctime = rg_timespec_ns(&st->st_ctim);
    return rg_journal_owns_as(&r, writer_alive, mtime, ctime, st->st_size);
}

/* A symbolic link an unlink or a rename over it takes away: kept by a link
 * to its inode, whatever other names it has, as no write can change what
 * it holds (its target), or across file systems by a new link with that
 * target (guard/journal/link.h), never by a copy, which would open it and
 * so follow it, maybe out of the roots. A move or an exchange loses none. */
static bool symlink_lost(const char *op, const struct stat *st)
{
    return S_ISLNK(st->st_mode) && (strcmp(op, "unlink") == 0 || strcmp(op, "rename") == 0);
}

/* A descriptor on the inode st describes: readable, or O_PATH (enough to
 * link it, and to open it readable later through /proc). */
static int open_source(const struct rg_request *req, int fd, bool follow, bool path_only,
                       const struct stat *st)
{
    int flags = path_only ? O_PATH | O_CLOEXEC : O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, rfd;
    if (fd >= 0) {
        char link[RG_FD_LINK_MAX];
        rg_fd_link(link, fd);
        rfd = rg_sys_openat(AT_FDCWD, link, flags, 0);
    } else {
        rfd = rg_sys_openat(req->dirfd, req->path, flags | (follow ? 0 : O_NOFOLLOW), 0);
    }
    struct stat now;
    if (rfd >= 0 &&
        (rg_sys_fstat(rfd, &now) != 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev)) {
        rg_sys_close(rfd);
        rfd = -ESTALE;
    }
    return rfd;
}

/* The bytes the entry records are kept now: as good as the session's own
 * for the journal, so an open for writing that changes nothing (the stamp
 * stays the read's, and a restamp leaves it so) does not keep them again. */
static void mark_kept(struct rg_ctx *c, const struct stat *st)
{
    struct rg_entry *e = rg_entry_of_write(c, st->st_dev, st->st_ino, false);
    struct rg_stamp now = rg_stamp_of(st);
    if (e)
        rg_entry_mark_kept(&c->table, e, &now);
}

/* A move of the file away from its name: a rename that keeps it whole,
 * under its new name, which the session's own changes keep again. */
static bool moving(const char *op) { return strcmp(op, RG_JOURNAL_OP_MOVE) == 0; }

/* An unlink, or a rename over the file, of its last name: the change leaves
 * the inode to the journal's link alone. A move of it leaves it its new
 * name, yet a link is what it needs: nothing is marked kept (mark_kept), so
 * a write through that name keeps a copy first, as a write through a
 * descriptor left open on a removed file does, and the end of the run
 * copies what has another name before it names it by content
 * (cli/journal/settle.h). A file written through a descriptor opened before the
 * session, so through no hook (one the session's launcher handed its tree),
 * is copied: its later output would go into a linked version. This
 * process's own standard output and error are asked later (linkable), as
 * that costs three system calls. */
static bool last_name(const struct rg_ctx *c, const char *op, int fd, bool follow,
                      const struct stat *st)
{
    return fd < 0 && !follow && st->st_nlink == 1 &&
           (strcmp(op, "unlink") == 0 || strcmp(op, "rename") == 0 || moving(op)) &&
           !rg_outputs_has(c->table.hdr, st->st_dev, st->st_ino);
}

/* last_name's file, unless this process's descriptor 0, 1 or 2 writes it
 * (opened before the session, through no hook): asked only once the file
 * is known to be kept, so a removal the journal leaves alone (a free
 * tier's `*.o`, `node_modules/`) pays none of its three fstat calls. */
static bool linkable(bool last, const struct stat *st)
{
    return last && !rg_std_writes(st->st_dev, st->st_ino);
}

/* An unlink, or a rename over the file, of a name whose one other name is
 * the journal's link (a move kept it: the backup a second sed -i~
 * replaces): the change leaves the inode to the journal alone, as for a
 * last name, so it may be kept by a link again where it is too large to
 * copy. Asked only then, as it reads objects/ through. */
static bool last_but_journal(const struct rg_jkeep *k, bool by_name)
{
    return by_name && k->st->st_nlink == 2 &&
           (strcmp(k->op, "unlink") == 0 || strcmp(k->op, "rename") == 0) &&
           rg_jlink_holds(k->objects, k->st);
}

/* Keeps k's file by a link where it is losing its last name, else by a
 * copy; by_name: the change goes by its name, not a descriptor. *src (O_PATH where path_only) may
 * be replaced by a readable descriptor. Only a copy takes room, so only a copy is held to the
 * per-file cap: a link keeps a file of any size for nothing. */
static enum rg_unkept keep_bytes(struct rg_jkeep *k, int *src, bool last, bool by_name,
                                 bool path_only, bool *linked, int *err)
{
    int r = last ? rg_jlink_keep(k, *src) : -EXDEV;
    *linked = r == 0;
    if (*linked)
        return RG_UNKEPT_NONE;
    if (S_ISLNK(k->st->st_mode))
        return *err = -r, k->unreadable ? RG_UNKEPT_UNREADABLE : RG_UNKEPT_JOURNAL;
    if (k->st->st_size > k->c->table.hdr->journal_max_file) {
        *linked = last_but_journal(k, by_name) && rg_jlink_keep(k, *src) == 0;
        return *linked ? RG_UNKEPT_NONE : RG_UNKEPT_TOO_LARGE;
    }
    if (path_only) {
        int rfd = open_source(k->req, *src, true, false, k->st);
        if (rfd < 0) {
            *err = -rfd;
            return RG_UNKEPT_UNREADABLE;
        }
        rg_sys_close(*src);
        *src = rfd;
    }
    r = rg_jcopy_keep(k, *src);
    *err = r < 0 ? -r : 0;
    return r < 0 ? RG_UNKEPT_JOURNAL : RG_UNKEPT_NONE;
}

static const char *unsaved_name(enum rg_unkept why)
{
    return why == RG_UNKEPT_TOO_LARGE    ? "too-large"
           : why == RG_UNKEPT_UNREADABLE ? "unreadable"
                                         : "journal-unwritable";
}

/* The bytes act needed kept could not be: the policy, asked again with the
 * reason, refuses (logged as any refusal), or lets the change go ahead
 * unsaved (warn mode, --allow-append). A symbolic link, which no mode ever
 * refused to remove for want of a keep, is only logged unsaved. */
static enum rg_action unkept(struct rg_jkeep *k, int fd, bool follow, enum rg_action act,
                             enum rg_unkept why, int err, bool *linked)
{
    if (act == RG_ALLOW_KEPT && S_ISREG(k->st->st_mode)) {
        struct rg_file f = rg_file_of(k->st);
        f.unkept = why;
        f.unkept_err = err;
        f.unkept_errname = rg_errname(err);
        act = rg_ask(k->c, k->req, &f, fd, follow);
        if (act == RG_REFUSE || act == RG_READ_ONLY) {
            if (*linked)
                rg_journal_unkeep(k->c, k->req, k->st);
            *linked = false;
            return act;
        }
    }
    rg_jindex_unsaved(k, unsaved_name(why), err);
    return act;
}

/* An O_PATH descriptor on the file (rg_journal_open), or fd -1 to open
 * one; plain: its path holds no symbolic link. */
struct given {
    int fd;
    bool plain;
    const struct rg_request *to; /* a move's new name */
    bool copy;                   /* a move out of guarded scope, known so */
};

/* A move to a name out of guarded scope (outside the roots, or free) is
 * kept by a copy: writes there keep nothing, and through a link they would
 * change the version kept, which undo would then take for the file's old
 * bytes. */
static __attribute__((noinline)) bool leaves_scope(struct rg_ctx *c, const struct rg_request *to)
{
    char abs[PATH_MAX];
    return to && rg_scope_of_name(c, to->dirfd, to->path, false, abs, sizeof abs) == RG_SCOPE_FREE;
}

/* Where the file lies, into k->abs. A path that holds no symbolic link is
 * its own real path once joined to the working directory's: that spares a
 * readlink of /proc/self/fd/N, which costs a tenth of what git checkout
 * pays to replace a file. */
static enum rg_scope locate(struct rg_jkeep *k, int where, bool follow, struct given g)
{
    const struct rg_request *req = k->req;
    if (g.plain)
        return rg_scope_locate_plain(k->c, req->dirfd, req->path, where, k->abs, sizeof k->abs);
    return rg_scope_locate(k->c, req->dirfd, req->path, where, follow, false, k->abs,
                           sizeof k->abs);
}

/* keep()'s *out: kept by a link (1), and kept at all. */
#define KEPT 2

/* keep() once the bytes need keeping. Out of line: its 12 KiB of paths and
 * saved registers are for the first write of a file only, not for every
 * allowed write, which stops at keep()'s first test. */
static __attribute__((noinline)) enum rg_action
keep_bytes_of(struct rg_ctx *c, const struct rg_request *req, const char *op, int fd, bool follow,
              const struct stat *st, enum rg_action act, bool moved_ok, struct given given,
              int *out)
{
    struct rg_jkeep k; /* not "= {...}": that clears its 12 KiB of paths on every keep */
    k.c = c, k.req = req, k.op = op, k.st = st;
    k.abs[0] = k.object[0] = '\0', k.unreadable = false;
    k.objects = k.index = "";
    /* An O_PATH source where the file may be linked: keep_bytes reopens it
     * readable if it is copied after all. */
    bool may_link = S_ISLNK(st->st_mode) ||
                    (last_name(c, op, fd, follow, st) && !given.copy && !leaves_scope(c, given.to)),
         linked = false;
    int src = given.fd >= 0 ? given.fd : open_source(req, fd, follow, may_link, st);
    /* A move that cannot be kept loses nothing: no warning, no record. */
    if ((src == -ESTALE && moved_ok) || (src < 0 && moving(op))) {
        *out = src;
        return act;
    }
    int where = src >= 0 ? src : fd;
    if (locate(&k, where, follow, given) == RG_SCOPE_FREE ||
        rg_path_under(k.abs, c->table.hdr->journal_dir)) {
        if (src >= 0)
            rg_sys_close(src);
        return act;
    }
    rg_jpaths_get(&c->jpaths, c->table.hdr, k.objects_buf, k.index_buf, &k.objects, &k.index);
    int err = src < 0 ? -src : 0;
    enum rg_unkept why = src < 0 ? RG_UNKEPT_UNREADABLE : RG_UNKEPT_NONE;
    /* A file past PATH_MAX is located by the name it was given, relative:
     * a version kept under that name is one undo can never find. */
    if (why == RG_UNKEPT_NONE && k.abs[0] != '/')
        why = RG_UNKEPT_JOURNAL, err = ENAMETOOLONG;
    if (why == RG_UNKEPT_NONE)
        why = keep_bytes(&k, &src, S_ISLNK(st->st_mode) || linkable(may_link, st),
                         fd < 0 && !follow, may_link || given.fd >= 0, &linked, &err);
    if (why == RG_UNKEPT_NONE && (err = -rg_jindex_append(&k)) != 0)
        why = RG_UNKEPT_JOURNAL;
    /* A moved file stays under its new name, where it may yet be written. */
    if (why == RG_UNKEPT_NONE && !moving(op))
        mark_kept(c, st);
    if (src >= 0)
        rg_sys_close(src);
    if (why != RG_UNKEPT_NONE && !moving(op))
        act = unkept(&k, fd, follow, act, why, err, &linked);
    *out = linked | (why == RG_UNKEPT_NONE ? KEPT : 0);
    return act;
}

/* rg_journal_keep, and rg_journal_keep_replaced where moved_ok. given.fd
 * is closed here. *out: -ESTALE (nothing kept or logged) when moved_ok and
 * the path names another file by now, else 1 when kept by a link, ored
 * with KEPT when kept at all. */
static inline enum rg_action keep(struct rg_ctx *c, const struct rg_request *req, const char *op,
                                  int fd, bool follow, const struct stat *st, enum rg_action act,
                                  bool moved_ok, struct given given, int *out)
{
    *out = 0;
    if (!rg_journal_on(c) || !(S_ISREG(st->st_mode) || symlink_lost(op, st)) || st->st_nlink == 0 ||
        own_bytes(c, st, fd)) {
        if (given.fd >= 0)
            rg_sys_close(given.fd);
        return act;
    }
    return keep_bytes_of(c, req, op, fd, follow, st, act, moved_ok, given, out);
}

enum rg_action rg_journal_keep(struct rg_ctx *c, const struct rg_request *req, const char *op,
                               int fd, bool follow, const struct stat *st, enum rg_action act,
                               bool *linked)
{
    int out;
    act =
        keep(c, req, op, fd, follow, st, act, false, (struct given){-1, false, NULL, false}, &out);
    if (linked)
        *linked = out & 1;
    return act;
}

enum rg_action rg_journal_keep_append(struct rg_ctx *c, const struct rg_request *req, int fd,
                                      bool follow, const struct stat *st, enum rg_action act,
                                      bool *kept)
{
    int out;
    act = keep(c, req, "write", fd, follow, st, act, false, (struct given){-1, false, NULL, false},
               &out);
    *kept = out & KEPT;
    return act;
}

/* Would a plain open fail as the one refusing symbolic links did? */
static bool fails_alike(int err)
{
    return err == -ENOENT || err == -ENOTDIR || err == -EACCES || err == -ENAMETOOLONG;
}

int rg_journal_open(const struct rg_request *req, struct stat *st, bool *plain)
{
    struct open_how how = {.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
                           .resolve = RESOLVE_NO_SYMLINKS};
    int pfd = rg_sys_openat2(req->dirfd, req->path, &how, sizeof how);
    *plain = pfd >= 0;
    /* A symbolic link on the way (ELOOP), or a kernel before openat2. */
    if (pfd < 0 && !fails_alike(pfd))
        pfd = rg_sys_openat(req->dirfd, req->path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    if (pfd >= 0 && rg_sys_fstat(pfd, st) != 0) {
        rg_sys_close(pfd);
        pfd = -EBADF;
    }
    return pfd;
}

enum rg_action rg_journal_keep_opened(struct rg_ctx *c, const struct rg_request *req,
                                      const char *op, int pfd, bool plain, const struct stat *st,
                                      enum rg_action act, bool *linked)
{
    int out;
    act =
        keep(c, req, op, -1, false, st, act, false, (struct given){pfd, plain, NULL, false}, &out);
    *linked = out & 1;
    return act;
}

int rg_journal_keep_replaced(struct rg_ctx *c, const struct rg_request *req, const char *op,
                             const struct stat *st, enum rg_action act)
{
    int out;
    act = keep(c, req, op, -1, false, st, act, true, (struct given){-1, false, NULL, false}, &out);
    return act == RG_REFUSE ? -EACCES : out < 0 ? out : out & 1;
}

void rg_journal_keep_moved(struct rg_ctx *c, const struct rg_request *req,
                           const struct rg_request *to, const struct stat *st)
{
    int out;
    keep(c, req, RG_JOURNAL_OP_MOVE, -1, false, st, RG_ALLOW, true,
         (struct given){-1, false, to, false}, &out);
}

void rg_journal_keep_leaving(struct rg_ctx *c, const struct rg_request *req, const struct stat *st)
{
    int out;
    keep(c, req, RG_JOURNAL_OP_MOVE, -1, false, st, RG_ALLOW, true,
         (struct given){-1, false, NULL, true}, &out);
}

void rg_journal_keep_retimed(struct rg_ctx *c, int dirfd, const char *path, int flags)
{
    if (!rg_journal_on(c))
        return;
    bool self = !path || (!path[0] && (flags & AT_EMPTY_PATH));
    struct stat st;
    int r = self ? rg_sys_fstat(dirfd, &st)
                 : rg_sys_fstatat(dirfd, path, &st, flags & AT_SYMLINK_NOFOLLOW);
    /* The journal's link is the moved file's second name: a file with one
     * name left was not kept so, and a time set on it destroys nothing. */
    if (r != 0 || !S_ISREG(st.st_mode) || st.st_nlink < 2)
        return;
    struct rg_request req = {.op = RG_OP_META,
                             .call = "utimensat",
                             .dirfd = self ? AT_FDCWD : dirfd,
                             .path = self ? "" : path};
    rg_journal_keep(c, &req, "times", self ? dirfd : -1, !(flags & AT_SYMLINK_NOFOLLOW), &st,
                    RG_ALLOW, NULL);
}

void rg_journal_unkeep(struct rg_ctx *c, const struct rg_request *req, const struct stat *st)
{
    rg_jlink_drop(c, req->dirfd, req->path, st);
}
