/* undo's two steps on one file: writing the kept version beside it, and
 * putting it in place (swap.h), saying what the exchange found. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/symlink.h"
#include "cli/shown.h"
#include "cli/undo/restore.h"
#include "cli/undo/spot.h"
#include "cli/undo/swap.h"
#include "core/sha256.h"
#include "os/clock.h"

/* Copies the kept bytes from src to dst, and checks them against their
 * name: nothing in the journal is fsync'd, so a power cut can leave part
 * of a copy under the name of the whole. An inode kept by a link and not
 * yet named by content (inode, as fstat'd before, else NULL) has no name
 * to check against: it is checked to be as it was before the copy, which
 * a write during it would move (journal/store.h). 0, -1 (errno), 1 (damaged) or
 * 2 (written to). */
static int copy_checked(const char *dir, const struct rg_jrec *r, int src, int dst,
                        const struct stat *inode)
{
    char target[RG_JOURNAL_OBJECT_MAX], got[RG_SHA256_HEX];
    struct stat now;
    int e = rg_jstore_hash_copy(src, dst, got);
    if (e < 0)
        return errno = -e, -1;
    if (inode)
        return fstat(src, &now) != 0 ? -1 : rg_jstore_same_state(inode, &now) ? 0 : 2;
    const char *want = rg_jstore_content_name(dir, r, target);
    return want && strcmp(want, got) != 0;
}

/* Is the version at src, opened from obj, kept by a link and not yet named
 * by content? Then *inode is its state, which must be as it was kept: a
 * descriptor left open on the removed file still writes to it. 1 (as
 * kept), 2 (written to since), 0 (not such a version) or -1 (errno). */
static int check_inode(const char *dir, const struct rg_jrec *r, const char *obj, int src,
                       struct stat *inode)
{
    struct stat st;
    if (!rg_jobject_is_linked(r->object) || lstat(obj, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    if (fstat(src, inode) != 0)
        return -1;
    int kept = rg_jstore_kept_unchanged(dir, r, src, inode);
    return kept < 0 ? -1 : kept ? 1 : 2;
}

/* Gives the staged fd the owner and group the journal kept, where this
 * process may: root may give any; a user only a group it is in, to a file
 * of its own, which is the one case worth a second try. Where it may not
 * (EPERM, or an id this namespace cannot map: EINVAL), the file stays
 * the undoer's, as any file it makes is. 0, or -1 (errno). */
static int give_owner(int fd, const struct rg_jrec *r)
{
    uid_t uid = r->uid < 0 ? (uid_t)-1 : (uid_t)r->uid;
    gid_t gid = r->gid < 0 ? (gid_t)-1 : (gid_t)r->gid;
    if (fchown(fd, uid, gid) == 0 || (errno == EPERM && fchown(fd, (uid_t)-1, gid) == 0))
        return 0;
    return errno == EPERM || errno == EINVAL ? 0 : -1;
}

/* Opens the directory abs lies in, recreating it if need be (owned as r's
 * file was, where undo may: spot.h), into spot:
 * 0, or an exit status once told. A symbolic link on the way is a tree
 * changed since the session (the journal records real paths): undo does
 * not follow it, as that is how a hostile tree leads it elsewhere. */
static int open_spot(struct rg_jspot *spot, const struct rg_jrec *r, const char *abs,
                     const char *file)
{
    struct rg_jspot_owner owner = {r->uid, r->gid};
    int e = rg_jspot_open(spot, abs, &owner);
    if (e == 0)
        return 0;
    const char *bad = rg_shown_n(abs, spot->bad);
    if (e == -ELOOP)
        rg_err("undo: '%s': '%s' on its way is a symbolic link now, not the directory the "
               "session changed it in: undo does not follow it",
               rg_shown(file), bad);
    else if (e == -ENOTDIR)
        rg_err("undo: '%s': '%s' on its way is not a directory now, as it was when the session "
               "changed it: undo does not remove what took its name",
               rg_shown(file), bad);
    else if (e == -EINVAL)
        rg_err("undo: '%s': not a usable path", rg_shown(file));
    else
        rg_err("undo: '%s': cannot recreate its directory '%s': %s", rg_shown(file), bad,
               strerror(-e));
    return e == -ELOOP || e == -ENOTDIR || e == -EINVAL ? RG_EXIT_NO : RG_EXIT_TROUBLE;
}

/* The kept version of r, open for reading, or -1 once told. *linked: it
 * is a link to the inode itself (inode its stat), which must not have been
 * written since (check_inode). */
static int open_kept(const char *dir, const struct rg_jrec *r, const char *file, struct stat *inode,
                     int *linked)
{
    char obj[PATH_MAX + 80];
    rg_jstore_object(obj, sizeof obj, dir, r->object);
    int src = open(obj, O_RDONLY | O_CLOEXEC);
    if (src < 0) {
        rg_err("undo: '%s': the kept version is missing from the journal (%s)", rg_shown(file),
               strerror(errno));
        return -1;
    }
    *linked = check_inode(dir, r, obj, src, inode);
    if (*linked == 2)
        rg_err("undo: '%s': " RG_JSTORE_WRITTEN "; not restoring", rg_shown(file));
    else if (*linked < 0)
        rg_err("undo: '%s': %s", rg_shown(file), strerror(errno));
    else
        return src;
    close(src);
    return -1;
}

/* Copies the kept version into the staged file dst, checked against its
 * name, and gives dst r's owner and mode; closes both. 0, or -1 once told. */
static int fill_staged(const char *dir, const struct rg_jrec *r, int src, int dst,
                       const struct stat *inode, const char *file)
{
    int rc = copy_checked(dir, r, src, dst, inode);
    int e = errno;
    close(src);
    /* The owner first: a chown clears the set-id bits the mode may hold. */
    int fe = give_owner(dst, r) == 0 && fchmod(dst, r->mode & 07777) == 0 ? 0 : errno;
    if (close(dst) != 0 && fe == 0)
        fe = errno;
    if (fe && rc == 0)
        rc = -1, e = fe;
    if (rc == 2)
        rg_err("undo: '%s': " RG_JSTORE_WRITTEN "; not restoring", rg_shown(file));
    else if (rc > 0 && rg_jobject_is_linked(r->object))
        rg_err("undo: '%s': " RG_JSTORE_WRITTEN_OR_DAMAGED "; not restoring", rg_shown(file));
    else if (rc > 0)
        rg_err("undo: '%s': " RG_JSTORE_DAMAGED "; not restoring", rg_shown(file));
    else if (rc < 0)
        rg_err("undo: '%s': %s", rg_shown(file), strerror(e));
    return rc == 0 ? 0 : -1;
}

/* Gives the link undo made, open in fd (O_PATH), the owner and times r
 * kept, by fd: by name, the tree could have put another file there first.
 * utimensat(fd, "", AT_EMPTY_PATH) acts on the O_PATH fd's own inode, the
 * link; futimens refuses an O_PATH fd (EBADF), and /proc/self/fd/N with
 * AT_SYMLINK_NOFOLLOW names the magic link, not this one. Without it the
 * lookup stops at the link the magic link jumps to, and is the way left
 * where a kernel refuses AT_EMPTY_PATH here (EINVAL). Where this process
 * may not give them, the link stays its own, as any it makes. */
static void give_link(int fd, const struct rg_jrec *r, const struct stat *kept)
{
    uid_t uid = r->uid < 0 ? (uid_t)-1 : (uid_t)r->uid;
    gid_t gid = r->gid < 0 ? (gid_t)-1 : (gid_t)r->gid;
    if (fchownat(fd, "", uid, gid, AT_EMPTY_PATH) != 0)
        (void)fchownat(fd, "", (uid_t)-1, gid, AT_EMPTY_PATH);
    /* The times recorded: where the journal is on another file system its
     * link is a new one, made when kept, and a readlink of the journal's
     * link (diff's, undo's own) moves the kept inode's atime (relatime:
     * its ctime moved past it when it was linked there). */
    struct timespec t[2] = {r->atime_ns == INT64_MIN ? kept->st_atim : rg_ns_timespec(r->atime_ns),
                            rg_ns_timespec(r->mtime_ns)};
    if (utimensat(fd, "", t, AT_EMPTY_PATH) != 0 && errno == EINVAL) {
        char self[64];
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        (void)utimensat(AT_FDCWD, self, t, 0);
    }
}

/* A kept symbolic link is made again beside abs: its target, read from
 * the journal's link, its owner and times; nothing opens it but as
 * itself (O_PATH), so nothing follows it to where it points. 0, or an
 * exit status once told. */
static int stage_symlink(const char *dir, const struct rg_jrec *r, const char *abs,
                         const char *file, struct rg_jspot *spot)
{
    char target[PATH_MAX];
    struct stat st;
    ssize_t n = rg_jsym_target(dir, r->object, target, sizeof target, &st);
    if (n < 0) {
        rg_err("undo: '%s': the kept symbolic link is missing from the journal (%s)",
               rg_shown(file), strerror((int)-n));
        return RG_EXIT_TROUBLE;
    }
    int rc = open_spot(spot, r, abs, file);
    if (rc != 0)
        return rc;
    int64_t since = rg_clock_ns(CLOCK_REALTIME_COARSE);
    if (rg_jspot_symlink_tmp(spot, abs, target) != 0) {
        rg_err("undo: '%s': cannot make the symbolic link to restore beside it: %s", rg_shown(file),
               strerror(errno));
        rg_jspot_close(spot);
        return RG_EXIT_TROUBLE;
    }
    int fd = rg_jspot_open_link_tmp(spot, target, since);
    if (fd >= 0) {
        give_link(fd, r, &st);
        close(fd);
        return 0;
    }
    /* What is there is not undo's to remove: it may be a name of a file
     * the tree moved there. */
    if (errno == ESTALE)
        rg_err("undo: '%s': the symbolic link undo made beside it, '%s', was replaced by another "
               "file before undo could give it its owner: not restoring, and leaving that file",
               rg_shown(file), rg_shown(spot->shown));
    else
        rg_err("undo: '%s': the symbolic link undo made beside it, '%s', cannot be opened: %s",
               rg_shown(file), rg_shown(spot->shown), strerror(errno));
    rg_jspot_close(spot);
    return RG_EXIT_TROUBLE;
}

int rg_jrestore_stage(const char *dir, const struct rg_jrec *r, const char *abs, const char *file,
                      struct rg_jspot *spot)
{
    *spot = (struct rg_jspot){.dir = -1};
    if (rg_jrec_is_symlink(r))
        return stage_symlink(dir, r, abs, file, spot);
    struct stat inode;
    int linked;
    int src = open_kept(dir, r, file, &inode, &linked);
    if (src < 0)
        return RG_EXIT_TROUBLE;
    int rc = open_spot(spot, r, abs, file);
    if (rc != 0) {
        close(src);
        return rc;
    }
    /* Private until it is whole and its owner's: root's staged copy of a
     * set-id file would otherwise be root's, runnable, for a while. */
    int dst = rg_jspot_create_tmp(spot, abs);
    if (dst < 0) {
        /* The file may well be writable where its directory is not: say
         * which of the two undo needed. */
        int err = errno;
        size_t dir_len = (size_t)(spot->name - 1 - abs);
        rg_err("undo: '%s': cannot write the version to restore beside it, in '%s': %s",
               rg_shown(file), rg_shown_n(abs, dir_len ? dir_len : 1), strerror(err));
        close(src);
        rg_jspot_close(spot);
        return RG_EXIT_TROUBLE;
    }
    if (fill_staged(dir, r, src, dst, linked ? &inode : NULL, file) == 0)
        return 0;
    rg_jspot_drop_tmp(spot);
    rg_jspot_close(spot);
    return RG_EXIT_TROUBLE;
}

/* "process 123 (python3)": a pid alone sends the user to ps(1), and the
 * process may be gone by then. */
static void name_writer(char *out, size_t cap, int32_t pid)
{
    if (pid <= 0) {
        snprintf(out, cap, "a process (another user's, or a shared memory map)");
        return;
    }
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    FILE *f = fopen(path, "re");
    if (f && fgets(comm, sizeof comm, f))
        comm[strcspn(comm, "\n")] = '\0';
    if (f)
        fclose(f);
    if (comm[0])
        snprintf(out, cap, "process %d (%s)", (int)pid, comm);
    else
        snprintf(out, cap, "process %d", (int)pid);
}

/* The same of a symbolic link put in its place after undo kept it: not
 * the file undo was asked to restore, so restored over, and kept. */
static int tell_link(const char *file, const char *tmp, const struct rg_jswap *d)
{
    if (!d->unkept)
        rg_err("undo: '%s': a symbolic link took its place as undo restored it: restored, and "
               "that link is kept in the journal ('readguard undo %s' brings it back)",
               rg_shown(file), rg_shown(file));
    else if (d->left)
        rg_err("undo: '%s': a symbolic link took its place as undo restored it: restored, but "
               "that link cannot be kept in the journal (%s); it is at '%s'",
               rg_shown(file), strerror(d->unkept), rg_shown(tmp));
    else
        rg_err("undo: '%s': a symbolic link took its place as undo restored it: restored, and "
               "that link is lost: the filesystem can neither exchange two files nor link it "
               "aside",
               rg_shown(file));
    return d->unkept ? RG_EXIT_TROUBLE : RG_EXIT_NO;
}

/* Says what undo found where it restored file (swap.h): an exit status,
 * or -1 when there is nothing to say. */
static int tell_displaced(const char *file, const char *tmp, const struct rg_jswap *d)
{
    if (d->link)
        return tell_link(file, tmp, d);
    if (d->caught && !d->unkept)
        rg_err("undo: '%s': a write landed on it as undo restored it: restored, and the bytes "
               "that write left are kept in the journal ('readguard undo %s' brings them back)",
               rg_shown(file), rg_shown(file));
    else if (d->caught && d->left)
        rg_err("undo: '%s': a write landed on it as undo restored it: restored, but the bytes "
               "that write left cannot be kept in the journal (%s); they are in '%s'",
               rg_shown(file), strerror(d->unkept), rg_shown(tmp));
    else if (d->caught)
        rg_err("undo: '%s': a write landed on it as undo restored it: restored, and the bytes "
               "that write left cannot be kept in the journal (%s), nor left beside it: the "
               "filesystem cannot exchange two files",
               rg_shown(file), strerror(d->unkept));
    char holder[96];
    name_writer(holder, sizeof holder, d->writer);
    /* Exit 1 alone would read as "not restored": the file was. */
    if (d->writer && d->left)
        rg_err("undo: '%s': restored, but %s still has the file undo replaced open for writing: "
               "it stays at '%s', where that process's writes from now on go (remove it once the "
               "process is done)",
               rg_shown(file), holder, rg_shown(tmp));
    else if (d->writer)
        rg_err("undo: '%s': restored, but %s still has the file undo replaced open for writing, "
               "and this filesystem cannot exchange two files: what it writes from now on is lost",
               rg_shown(file), holder);
    if (d->caught && d->unkept)
        return RG_EXIT_TROUBLE;
    return d->caught || d->writer ? RG_EXIT_NO : -1;
}

int rg_jrestore_commit(const char *dir, struct rg_jspot *spot, const char *abs, const char *file,
                       const struct rg_jkept *kept)
{
    struct rg_jswap d;
    int r = rg_jswap_restore(dir, spot, abs, kept, &d);
    if (r == 0)
        return tell_displaced(file, spot->shown, &d);
    rg_err("undo: '%s': %s", rg_shown(file), strerror(-r));
    rg_jspot_drop_tmp(spot);
    return RG_EXIT_TROUBLE;
}
