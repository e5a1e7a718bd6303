#include "guard/journal/link.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "core/text.h"
#include "guard/journal/copy.h"
#include "guard/meta.h"
#include "os/sys.h"
/* objects/name into out, as rg_concat would (empty where it does not
 * fit): name's length is known, so one strlen, not three. */
static void linked_name(char *out, size_t cap, const char *objects, const struct stat *st,
                        char name[RG_JOURNAL_OBJECT_MAX])
{
    size_t n = rg_jobject_linked(name, st->st_dev, st->st_ino,
                                 (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec),
           o = strlen(objects);
    if (o + 1 + n >= cap) {
        out[0] = '\0';
        return;
    }
    memcpy(out, objects, o);
    out[o] = '/';
    memcpy(out + o + 1, name, n + 1);
}

/* The link to, made through rg_guard_meta: the link moves the ctime of a
 * file that still has the user's name, so a file the session knew stays
 * known, or a sibling about to write it finds it changed (guard/meta.h).
 * k->st was taken before the decision, by the same descriptor: a record
 * older than it is of a file gone since (git checkout replaces files it
 * never read, on inode numbers the table may still hold), and one of its
 * very stamp with no writer of the session counted is of the file as it
 * is; neither needs a look again. Any other gets one, as a sibling may
 * have restamped the file meanwhile. */
static long link_as(struct rg_jkeep *k, int pfd, const char *from, const char *to)
{
    struct rg_meta_file f = {pfd, NULL, 0};
    struct rg_meta_call call = {
        SYS_linkat, {AT_FDCWD, (long)from, AT_FDCWD, (long)to, AT_SYMLINK_FOLLOW}, false};
    /* from "": the descriptor itself (AT_EMPTY_PATH), which Linux 6.10 and
     * later allow for a descriptor opened with the caller's credentials;
     * elsewhere ENOENT. It spares the lookup of /proc/self/fd/N, which
     * costs as much as the link itself. */
    if (!from[0])
        call.args[0] = pfd, call.args[4] = AT_EMPTY_PATH;
    return rg_guard_meta_seen(k->c, &f, &call, k->st);
}

static bool same_inode(const char *path, const struct stat *st)
{
    struct stat there;
    return rg_sys_fstatat(AT_FDCWD, path, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
           there.st_ino == st->st_ino && there.st_dev == st->st_dev;
}

/* Is what path names a symbolic link to target, of n bytes? */
static bool links_to(const char *path, const char *target, long n)
{
    char there[PATH_MAX];
    long m = rg_syscall6(SYS_readlinkat, AT_FDCWD, (long)path, (long)there, sizeof there, 0, 0);
    return m == n && memcmp(there, target, (size_t)n) == 0;
}

/* A symbolic link that cannot be linked (the journal on another file
 * system, EXDEV) is made again at to, the name a link would have had, as
 * the CLI's keep does (cli/journal/symlink.c): it holds nothing but its
 * target, read through pfd itself (readlinkat of "": no path walked,
 * nothing followed). Its mode, owner and times are recorded from the
 * fstat of pfd (k->st), which undo sets, not the new link's. */
static int remake(struct rg_jkeep *k, int pfd, const char *to)
{
    char target[PATH_MAX];
    long n = rg_syscall6(SYS_readlinkat, pfd, (long)"", (long)target, sizeof target, 0, 0);
    k->unreadable = n < 0 || n >= (long)sizeof target;
    if (k->unreadable)
        return n < 0 ? (int)n : -ENAMETOOLONG;
    target[n] = '\0';
    long r = rg_syscall6(SYS_symlinkat, (long)target, AT_FDCWD, (long)to, 0, 0, 0);
    if (r == -ENOENT && rg_jdir_make(k->objects) == 0)
        r = rg_syscall6(SYS_symlinkat, (long)target, AT_FDCWD, (long)to, 0, 0, 0);
    /* The same link in the same state, kept by another process of the
     * session: its name says so, and its target must too. */
    return r == -EEXIST && links_to(to, target, n) ? 0 : (int)r;
}

int rg_jlink_keep(struct rg_jkeep *k, int pfd)
{
    char from[RG_FD_LINK_MAX], to[RG_JPATH + RG_JOURNAL_OBJECT_MAX];
    linked_name(to, sizeof to, k->objects, k->st, k->object);
    long r = link_as(k, pfd, "", to);
    /* Named through /proc only where the descriptor alone was refused. */
    if (r == -ENOENT) {
        rg_fd_link(from, pfd);
        r = link_as(k, pfd, from, to);
    }
    /* The first version a new journal keeps makes its objects/. */
    if (r == -ENOENT && rg_jdir_make(k->objects) == 0)
        r = link_as(k, pfd, from, to);
    /* Another process of the session keeps the same inode in the same state:
     * one name for both. Only that: the name is foreseeable (device, inode
     * and ctime, which stat shows), and whatever else a tree put there
     * would stand in for the file. The caller then copies it. */
    if (r == 0 || (r == -EEXIST && same_inode(to, k->st)))
        return 0;
    return S_ISLNK(k->st->st_mode) && to[0] ? remake(k, pfd, to) : (int)r;
}

/* A private copy of the linked version obj, under the dot name tmp (which
 * a prune removes, were this process killed before it is renamed). */
static int copy_of(const char *objects, const char *obj, const struct stat *st, char *tmp,
                   size_t cap)
{
    /* Process-wide, as the pid beside it: unique among all the process's
     * contexts (the supervisor has one per handler thread). */
    static _Atomic unsigned seq;
    int src = rg_sys_openat(AT_FDCWD, obj, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (src < 0)
        return src;
    snprintf(tmp, cap, "%s/.tmp-%d-c%u", objects, (int)rg_sys_getpid(), atomic_fetch_add(&seq, 1));
    int dst = rg_sys_openat(AT_FDCWD, tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int r = dst < 0 ? dst : rg_jcopy_bytes(src, dst, st->st_size);
    /* Its mtime is the version's, as the link's was: undo tells a version
     * written to after it was kept by it. */
    struct timespec t[2] = {st->st_atim, st->st_mtim};
    if (r == 0)
        r = (int)rg_syscall6(SYS_utimensat, dst, 0, (long)t, 0, 0, 0);
    if (r < 0 && dst >= 0)
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    if (dst >= 0)
        rg_sys_close(dst);
    rg_sys_close(src);
    return r;
}

/* Is name, in the directory dfd, prefix followed by a ctime, and the
 * inode st describes? */
static bool names_inode(int dfd, const char *name, const char *prefix, size_t n,
                        const struct stat *st)
{
    struct stat there;
    return strncmp(name, prefix, n) == 0 &&
           rg_sys_fstatat(dfd, name, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
           there.st_ino == st->st_ino && there.st_dev == st->st_dev;
}

bool rg_jlink_holds(const char *objects, const struct stat *st)
{
    char prefix[RG_JOURNAL_OBJECT_MAX];
    rg_jobject_linked(prefix, st->st_dev, st->st_ino, 0);
    size_t n = strlen(prefix) - 1; /* "ino-DEV-INO-", whatever the ctime */
    int dfd = rg_sys_openat(AT_FDCWD, objects, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0)
        return false;
    _Alignas(8) char buf[4096];
    bool held = false;
    for (long got;
         !held && (got = rg_syscall6(SYS_getdents64, dfd, (long)buf, sizeof buf, 0, 0, 0)) > 0;)
        for (long off = 0; !held && off < got;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            off += d->d_reclen;
            held = names_inode(dfd, d->d_name, prefix, n, st);
        }
    rg_sys_close(dfd);
    return held;
}

void rg_jlink_drop(struct rg_ctx *c, int dirfd, const char *path, const struct stat *st)
{
    struct stat now;
    if (rg_sys_fstatat(dirfd, path, &now, AT_SYMLINK_NOFOLLOW) != 0 || now.st_ino != st->st_ino ||
        now.st_dev != st->st_dev)
        return;
    char objects[RG_JPATH], obj[RG_JPATH + RG_JOURNAL_OBJECT_MAX], name[RG_JOURNAL_OBJECT_MAX];
    char tmp[RG_JPATH + 64];
    rg_concat(objects, sizeof objects, c->table.hdr->journal_dir, "/", RG_JOURNAL_OBJECTS);
    linked_name(obj, sizeof obj, objects, st, name);
    /* The record naming the link stays, and the table says the bytes are
     * kept: the link becomes a copy of itself, so the version stays whole
     * while the file, still under its name, changes. Only a copy that
     * cannot be made drops it. Either moves the file's ctime (its link
     * count), so through rg_guard_meta. */
    struct rg_meta_file f = {dirfd, path, AT_SYMLINK_NOFOLLOW};
    struct rg_meta_call call = {SYS_unlinkat, {AT_FDCWD, (long)obj, 0}, false};
    bool copied = copy_of(objects, obj, st, tmp, sizeof tmp) == 0;
    if (copied)
        call = (struct rg_meta_call){
            SYS_renameat2, {AT_FDCWD, (long)tmp, AT_FDCWD, (long)obj, 0}, false};
    if (rg_guard_meta(c, &f, &call) < 0 && copied)
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
}
