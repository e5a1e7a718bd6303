/* rename(2) and its kin, guarded: each name judged (a new name out of scope
 * is a write), what is replaced journaled first, and what the session knew
 * of the inode carried to its new name, so a rename neither unlocks an
 * unread file nor locks the session out of its own. */
#include <errno.h>
#include <linux/fs.h>

#include "core/policy.h"
#include "guard/ask.h"
#include "guard/calls.h"
#include "guard/journal/keep.h"
#include "guard/meta.h"
#include "guard/names.h"
#include "guard/restamp.h"
#include "guard/tier/scope.h"
#include "os/sys.h"

/* A rename moves what the session knows about an inode to its new name; it
 * never makes an unread inode known, or `mv f x && mv x f` would unlock f.
 * The session's own atomic save renames a temp file it wrote (so knows). */
struct moved {
    bool known;
    /* Nothing of it is left for the journal to keep as it moves away: its
     * bytes are the session's own write (an atomic save's temp file), or
     * they were kept already, on an earlier try. */
    bool kept;
    uint64_t dev, ino;
    struct rg_entry *e;   /* the entry, when known */
    struct rg_record was; /* its record, when known */
};

/* Is f what r recorded? A read within a tick of the file's last change
 * (sed -i.bak of a file written a moment before) is racy: then only the
 * bytes can tell, and they are hashed, so that the session still knows the
 * file it read, for the backup rule (guard/tier/scope.h) and under its new name. */
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
    struct moved m = {0};
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
        m.kept = m.known && r.written;
        m.e = m.known ? e : NULL;
        m.was = r;
        /* The renamer's own write descriptor restamps at its close, after
         * this rename: waiting for it would wait the whole second for
         * nothing (rustc renames its dep-graph.part.bin still open). */
        bool own = r.writers == 1 && r.writer_pid == rg_ctx_pid(c);
        if (m.known || own || !rg_wait_restamp(&r, n))
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
 * it (renamed_over); -1 otherwise. *st: the file as the descriptor shows it. */
static int hold_replaced(struct rg_ctx *c, const struct rg_request *req, const struct stat *dst,
                         struct stat *st)
{
    struct rg_file f = rg_file_of(dst);
    if (!S_ISREG(dst->st_mode) || !rg_entry_for(c, &f, false))
        return -1;
    int fd = rg_sys_openat(req->dirfd, req->path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd >= 0 &&
        (rg_sys_fstat(fd, st) != 0 || st->st_ino != dst->st_ino || st->st_dev != dst->st_dev)) {
        rg_sys_close(fd);
        return -1;
    }
    return fd;
}

/* The rename itself; over a file held, as the session's own change of that
 * file's metadata (guard/meta.h). seen: the hold's own fstat of the
 * descriptor meta would look by, made just before, so a record of that very
 * stamp, or one older than it, needs no look again (rg_guard_meta_seen). */
static int renamed_over(struct rg_ctx *c, int held, const struct stat *seen, int olddirfd,
                        const char *oldpath, const struct rg_request *req, unsigned flags)
{
    if (held < 0)
        return rg_sys_renameat2(olddirfd, oldpath, req->dirfd, req->path, flags);
    struct rg_meta_file f = {held, NULL, 0};
    struct rg_meta_call call = {
        SYS_renameat2, {olddirfd, (long)oldpath, req->dirfd, (long)req->path, flags}, false};
    return (int)rg_guard_meta_seen(c, &f, &call, seen);
}

/* The rename changed the inode's ctime: record it, if the session knew the
 * inode as it was, under the name it now has. Looked at as a writer's close
 * looks (guard/restamp.h): a sibling may be writing it through that name
 * already, and one look in the middle of its write() would stand. */
static void carry(struct rg_ctx *c, const struct moved *m, int dirfd, const char *path)
{
    if (m->known)
        rg_restamp_renamed(c, m->e, &m->was, dirfd, path, m->dev, m->ino);
}

/* Names in one directory share its descriptor where their directory parts
 * are spelt alike (guard/anchor.h); any other pair may still name the same
 * directory by two descriptors: the same inode, not the same fd. */
static bool same_dir(int a, int b)
{
    struct stat sa, sb;
    return a == b || (rg_sys_fstatat(a, "", &sa, AT_EMPTY_PATH) == 0 &&
                      rg_sys_fstatat(b, "", &sb, AT_EMPTY_PATH) == 0 && sa.st_ino == sb.st_ino &&
                      sa.st_dev == sb.st_dev);
}

/* One rename, judged and retried by the steps below. */
struct renaming {
    const struct rg_request *req; /* the new name */
    struct rg_request old;        /* the old name */
    unsigned flags;
    int targets; /* the names whose files it replaces: 1, or 2 (RENAME_EXCHANGE) */
    enum rg_scope dst_scope;
    struct moved from, onto;
    struct stat dst; /* what the new name held when judged; st_mode 0: nothing */
    bool linked;     /* dst kept by a link, which a failed rename takes back */
};

/* What moves gets a new name: outside guarded scope, that is a write.
 * Judged once: the names do not change between tries. */
static int judge_names(struct rg_ctx *c, const struct renaming *j)
{
    const struct rg_request *req = j->req;
    struct rg_request name = {.op = RG_OP_LINK,
                              .call = req->call,
                              .dirfd = j->old.dirfd,
                              .path = j->old.path,
                              .to_dirfd = req->dirfd,
                              .to_path = req->path};
    int r;
    if (!j->from.known && (r = rg_guard_new_name(c, &name)) < 0)
        return r;
    struct rg_request back = {.op = RG_OP_LINK,
                              .call = req->call,
                              .dirfd = req->dirfd,
                              .path = req->path,
                              .to_dirfd = j->old.dirfd,
                              .to_path = j->old.path};
    if (j->targets == 2 && !j->onto.known && (r = rg_guard_new_name(c, &back)) < 0)
        return r;
    return 0;
}

/* Will the rename move nothing, as far as can be told before it? A
 * program tries a rename that fails before doing something else (mv tries
 * RENAME_NOREPLACE first, and copies across file systems), and a move
 * journaled that never happened would be undone all the same. */
static bool moves_nothing(const struct renaming *j)
{
    struct stat a, b;
    if (j->targets == 0)
        return rg_sys_fstatat(j->req->dirfd, j->req->path, &a, AT_SYMLINK_NOFOLLOW) == 0;
    if (S_ISDIR(j->dst.st_mode) || (j->dst.st_ino == j->from.ino && j->dst.st_dev == j->from.dev))
        return true;
    return j->old.dirfd != j->req->dirfd &&
           (rg_sys_fstatat(j->old.dirfd, "", &a, AT_EMPTY_PATH) != 0 ||
            rg_sys_fstatat(j->req->dirfd, "", &b, AT_EMPTY_PATH) != 0 || a.st_dev != b.st_dev);
}

/* Keeps the regular file the rename moves away from its name, as that
 * name's version: a new file may take the name next (sed -i~, mv -b, cp -b
 * and install -b move the original to a backup name first), and undo of it
 * needs the original, whatever becomes of the backup. Out of line: an
 * atomic save's temp file, the session's own, never comes here. */
static __attribute__((noinline)) void keep_moved(struct rg_ctx *c, const struct renaming *j)
{
    struct stat st;
    if (j->targets < 2 && j->from.ino && rg_journal_on(c) && !moves_nothing(j) &&
        rg_sys_fstatat(j->old.dirfd, j->old.path, &st, AT_SYMLINK_NOFOLLOW) == 0)
        rg_journal_keep_moved(c, &j->old, j->req, &st);
}

/* Judges the files the names hold now and keeps what the rename replaces,
 * and, once, what it moves away: 0, a refusal, or -ESTALE while
 * stale_again: a sibling renamed another file over the target since it
 * was judged, so judge that one. */
static int judge_files(struct rg_ctx *c, struct renaming *j, bool stale_again)
{
    struct stat src = {0};
    j->dst = (struct stat){0};
    j->linked = false;
    enum rg_action dst_act = RG_ALLOW, src_act = RG_ALLOW;
    if (j->targets >= 1 &&
        (dst_act = rg_ask_path_in(c, j->req, false, &j->dst, j->dst_scope)) == RG_REFUSE)
        return -EACCES;
    if (j->targets == 2 && (src_act = rg_ask_path_stat(c, &j->old, false, &src)) == RG_REFUSE)
        return -EACCES;
    int kept = j->dst.st_mode != 0
                   ? rg_journal_keep_replaced(c, j->req, j->targets == 2 ? "exchange" : "rename",
                                              &j->dst, dst_act)
                   : 0;
    if ((kept == -ESTALE && stale_again) || kept == -EACCES)
        return kept;
    j->linked = kept == 1;
    if (src.st_mode != 0 &&
        rg_journal_keep(c, &j->old, "exchange", -1, false, &src, src_act, NULL) == RG_REFUSE) {
        if (j->linked)
            rg_journal_unkeep(c, j->req, &j->dst);
        return -EACCES;
    }
    if (!j->from.kept) {
        keep_moved(c, j);
        j->from.kept = true;
    }
    return 0;
}

/* Does the new name still hold the file judged and kept? Under --strict
 * the keep may take long enough (a copy) for the tree, served meanwhile,
 * to rename another file onto the name: that one is judged, not replaced
 * unjudged. One call's window remains (readguard(1), LIMITATIONS). */
static bool dst_moved(struct rg_ctx *c, const struct renaming *j)
{
    struct stat now;
    return c->sealed_ino && j->targets == 1 && j->dst.st_mode != 0 &&
           (rg_sys_fstatat(j->req->dirfd, j->req->path, &now, AT_SYMLINK_NOFOLLOW) != 0 ||
            now.st_ino != j->dst.st_ino || now.st_dev != j->dst.st_dev);
}

/* The rename, once judged. *again: a file appeared at the destination
 * that was free when judged (RENAME_NOREPLACE, for the first tries), or
 * another took its name (-ESTALE). */
static int rename_judged(struct rg_ctx *c, struct renaming *j, bool noreplace, bool *again)
{
    bool exists = j->dst.st_mode != 0;
    if (dst_moved(c, j)) {
        if (j->linked)
            rg_journal_unkeep(c, j->req, &j->dst);
        j->linked = false;
        *again = true;
        return -ESTALE;
    }
    unsigned f = j->flags | (j->targets == 1 && !exists && noreplace ? RENAME_NOREPLACE : 0);
    struct stat seen;
    int held = j->targets == 1 && exists ? hold_replaced(c, j->req, &j->dst, &seen) : -1;
    /* Only now: the journal's question "are these bytes the session's
     * own?" must not take this rename for a writer that kept them. */
    act_begin(&j->from);
    act_begin(&j->onto);
    int r = renamed_over(c, held, &seen, j->old.dirfd, j->old.path, j->req, f);
    *again = r == -EEXIST && f != j->flags;
    if (r == -EINVAL && f != j->flags) /* a filesystem without RENAME_NOREPLACE */
        r = renamed_over(c, held, NULL, j->old.dirfd, j->old.path, j->req, j->flags);
    if (held >= 0)
        rg_sys_close(held);
    if (*again) {
        act_end(&j->from);
        act_end(&j->onto);
    }
    return r;
}

int rg_guard_rename(struct rg_ctx *c, const struct rg_request *req, int olddirfd,
                    const char *oldpath, unsigned flags)
{
    struct renaming j = {
        .req = req, .old = *req, .flags = flags, .targets = rg_rename_targets(flags)};
    j.old.dirfd = olddirfd;
    j.old.path = oldpath;
    j.old.shown = NULL;
    j.from = known_at(c, olddirfd, oldpath);
    j.onto = j.targets == 2 ? known_at(c, req->dirfd, req->path) : (struct moved){0};
    int r = judge_names(c, &j);
    if (r < 0)
        return r;
    j.dst_scope =
        j.targets == 1 && rg_backup_name(oldpath, req->path) && same_dir(olddirfd, req->dirfd)
            ? rg_scope_backup(c, j.from.known, olddirfd, oldpath, req->path)
            : RG_SCOPE_UNKNOWN;
    /* The destination was free when judged: keep it so, or a file that
     * appears meanwhile would be replaced unchecked (a few tries, then as
     * before). */
    bool again;
    int tries = 0, stale = 0;
    do {
        r = judge_files(c, &j, stale < 8);
        if (r == -ESTALE) {
            stale++;
            again = true;
            continue;
        }
        if (r < 0)
            return r;
        r = rename_judged(c, &j, tries++ < 3, &again);
        if (r == -ESTALE && ++stale >= 8)
            again = false, r = -EAGAIN;
    } while (again);
    if (r < 0 && j.linked)
        rg_journal_unkeep(c, req, &j.dst);
    if (r == 0) {
        carry(c, &j.from, req->dirfd, req->path);
        carry(c, &j.onto, olddirfd, oldpath);
    }
    act_end(&j.from);
    act_end(&j.onto);
    return r;
}
