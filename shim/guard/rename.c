/* rename(2) and its kin, guarded: each name judged (a new name out of scope
 * is a write), what is replaced journaled first, and what the session knew
 * of the inode carried to its new name, so a rename neither unlocks an
 * unread file nor locks the session out of its own. */
#include <errno.h>
#include <linux/fs.h>

#include "core/policy.h"
#include "guard/ask.h"
#include "guard/calls.h"
#include "guard/journal.h"
#include "guard/meta.h"
#include "guard/names.h"
#include "guard/restamp.h"
#include "guard/scope.h"
#include "os/sys.h"

/* A rename moves what the session knows about an inode to its new name; it
 * never makes an unread inode known, or `mv f x && mv x f` would unlock f.
 * The session's own atomic save renames a temp file it wrote (so knows). */
struct moved {
    bool known;
    uint64_t dev, ino;
    struct rg_entry *e; /* the record, when known */
};

/* Is f what r recorded? A read within a tick of the file's last change
 * (sed -i.bak of a file written a moment before) is racy: then only the
 * bytes can tell, and they are hashed, so that the session still knows the
 * file it read, for the backup rule (guard/scope.h) and under its new name. */
static bool recorded(int dirfd, const char *path, struct rg_file *f, const struct rg_record *r)
{
    enum rg_stamp_match m = rg_record_match(f, r);
    if (m == RG_STAMP_ASK_BYTES) {
        struct rg_request at = {.dirfd = dirfd, .path = path};
        rg_take_hash(&at, f, -1, false);
        m = rg_record_match(f, r);
    }
    return m == RG_STAMP_MATCHES;
}

/* A sibling's own write or act still to restamp the inode is waited for:
 * the carry must come after it, or the file is left changed. */
static struct moved known_at(struct rg_ctx *c, int dirfd, const char *path)
{
    struct stat st;
    struct moved m = {false, 0, 0, NULL};
    for (int n = 0;
         rg_sys_fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode); n++) {
        struct rg_file f = rg_file_of(&st);
        struct rg_entry *e = rg_entry_for(c, &f, false);
        struct rg_record r = rg_entry_load(&c->table, e);
        m.dev = f.dev;
        m.ino = f.ino;
        /* Only a record of this very stamp (ctime included: an mtime put
         * back after a change must not be carried as known), or of these
         * very bytes where the stamp cannot tell. */
        m.known = recorded(dirfd, path, &f, &r);
        m.e = m.known ? e : NULL;
        if (m.known || !rg_wait_restamp(&r, n))
            break;
    }
    return m;
}

/* The rename moves the ctime of what it moves before carry can record it:
 * a sibling judging the inode in between must wait for the carry (rg_ask),
 * not find it changed. */
static void act_begin(const struct moved *m)
{
    if (m->e)
        rg_entry_act_begin(m->e);
}

static void act_end(const struct moved *m)
{
    if (m->e)
        rg_entry_writer_close(m->e);
}

/* The file a rename over it replaces loses a name, which moves its ctime,
 * and it may live on: open in a sibling about to write it, or under another
 * name. A descriptor on it, if the session knows it, lets the rename restamp
 * it (renamed_over); -1 otherwise. */
static int hold_replaced(struct rg_ctx *c, const struct rg_request *req, const struct stat *dst)
{
    struct rg_file f = rg_file_of(dst);
    if (!S_ISREG(dst->st_mode) || !rg_entry_for(c, &f, false))
        return -1;
    int fd = rg_sys_openat(req->dirfd, req->path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    struct stat st;
    if (fd >= 0 &&
        (rg_sys_fstat(fd, &st) != 0 || st.st_ino != dst->st_ino || st.st_dev != dst->st_dev)) {
        rg_sys_close(fd);
        return -1;
    }
    return fd;
}

/* The rename itself; over a file held, as the session's own change of that
 * file's metadata (guard/meta.h). */
static int renamed_over(struct rg_ctx *c, int held, int olddirfd, const char *oldpath,
                        const struct rg_request *req, unsigned flags)
{
    if (held < 0)
        return rg_sys_renameat2(olddirfd, oldpath, req->dirfd, req->path, flags);
    struct rg_meta_file f = {held, NULL, 0};
    struct rg_meta_call call = {
        SYS_renameat2, {olddirfd, (long)oldpath, req->dirfd, (long)req->path, flags}, false};
    return (int)rg_guard_meta(c, &f, &call);
}

/* The rename changed the inode's ctime: record it, if the session knew the
 * inode as it was, under the name it now has. Looked at as a writer's close
 * looks (guard/restamp.h): a sibling may be writing it through that name
 * already, and one look in the middle of its write() would stand. */
static void carry(struct rg_ctx *c, const struct moved *m, int dirfd, const char *path)
{
    if (m->known)
        rg_restamp_renamed(c, m->e, dirfd, path, m->dev, m->ino);
}

/* Each name of a rename is anchored on a descriptor of its own
 * (guard/anchor.h): the same directory is the same inode, not the same fd. */
static bool same_dir(int a, int b)
{
    struct stat sa, sb;
    return a == b || (rg_sys_fstatat(a, "", &sa, AT_EMPTY_PATH) == 0 &&
                      rg_sys_fstatat(b, "", &sb, AT_EMPTY_PATH) == 0 && sa.st_ino == sb.st_ino &&
                      sa.st_dev == sb.st_dev);
}

int rg_guard_rename(struct rg_ctx *c, const struct rg_request *req, int olddirfd,
                    const char *oldpath, unsigned flags)
{
    int targets = rg_rename_targets(flags), r;
    struct rg_request old = *req;
    old.dirfd = olddirfd;
    old.path = oldpath;
    old.shown = NULL;
    struct moved from = known_at(c, olddirfd, oldpath), onto = {false, 0, 0, NULL};
    if (targets == 2)
        onto = known_at(c, req->dirfd, req->path);
    /* What moves gets a new name: outside guarded scope, that is a write. */
    struct rg_request name = {RG_OP_LINK, req->call, olddirfd,   oldpath,   0,
                              0,          0,         req->dirfd, req->path, NULL};
    if (!from.known && (r = rg_guard_new_name(c, &name)) < 0)
        return r;
    struct rg_request back = {RG_OP_LINK, req->call, req->dirfd, req->path, 0,
                              0,          0,         olddirfd,   oldpath,   NULL};
    if (targets == 2 && !onto.known && (r = rg_guard_new_name(c, &back)) < 0)
        return r;
    enum rg_scope dst_scope =
        targets == 1 && rg_backup_name(oldpath, req->path) && same_dir(olddirfd, req->dirfd)
            ? rg_scope_backup(c, from.known, olddirfd, oldpath, req->path)
            : RG_SCOPE_UNKNOWN;
    struct stat dst = {0};
    bool linked = false;
    for (int tries = 0, moved = 0;; tries++) {
        struct stat src = {0};
        dst = (struct stat){0};
        int dst_kept = 0, src_kept = 0;
        if (targets >= 1 && (dst_kept = rg_ask_path_in(c, req, false, &dst, dst_scope)) < 0)
            return dst_kept;
        if (targets == 2 && (src_kept = rg_ask_path_stat(c, &old, false, &src)) < 0)
            return src_kept;
        bool exists = dst.st_mode != 0;
        int kept = exists ? rg_journal_keep_replaced(c, req, targets == 2 ? "exchange" : "rename",
                                                     &dst, dst_kept ? RG_ALLOW_KEPT : RG_ALLOW)
                          : 0;
        /* A sibling renamed another file over the target since it was
         * judged: judge that one (a few times, then as before). */
        if (kept == -ESTALE && moved++ < 8) {
            tries--;
            continue;
        }
        if (kept == -EACCES)
            return kept;
        linked = kept == 1;
        if (src.st_mode != 0 &&
            rg_journal_keep(c, &old, "exchange", -1, false, &src,
                            src_kept ? RG_ALLOW_KEPT : RG_ALLOW, NULL) == RG_REFUSE) {
            if (linked)
                rg_journal_unkeep(c, req, &dst);
            return -EACCES;
        }
        /* The destination was free when checked: keep it so, or a file that
         * appears meanwhile would be replaced unchecked. */
        unsigned f = flags | (targets == 1 && !exists && tries < 3 ? RENAME_NOREPLACE : 0);
        int held = targets == 1 && exists ? hold_replaced(c, req, &dst) : -1;
        /* Only now: the journal's question "are these bytes the session's
         * own?" must not take this rename for a writer that kept them. */
        act_begin(&from);
        act_begin(&onto);
        r = renamed_over(c, held, olddirfd, oldpath, req, f);
        bool again = r == -EEXIST && f != flags;
        if (r == -EINVAL && f != flags) /* a filesystem without RENAME_NOREPLACE */
            r = renamed_over(c, held, olddirfd, oldpath, req, flags);
        if (held >= 0)
            rg_sys_close(held);
        if (!again)
            break;
        act_end(&from);
        act_end(&onto);
    }
    if (r < 0 && linked)
        rg_journal_unkeep(c, req, &dst);
    if (r == 0) {
        carry(c, &from, req->dirfd, req->path);
        carry(c, &onto, olddirfd, oldpath);
    }
    act_end(&from);
    act_end(&onto);
    return r;
}
