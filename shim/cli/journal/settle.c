#include "cli/journal/settle.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "core/sha256.h"
/* Links linked to obj, or claims the version there already (same bytes).
 * What the claim finds no such version (a name a tree planted) it moves
 * aside, and the link is made again. 0, or -errno. */
static int link_or_claim(const char *linked, const char *obj, int64_t size)
{
    for (int tries = 0;; tries++) {
        int e = link(linked, obj) == 0 ? 0 : errno == EEXIST ? rg_jstore_claim(obj, size) : -errno;
        if (e != -ENOENT || tries == 2)
            return e;
    }
}

static int open_linked(const char *linked, struct stat *st)
{
    int fd = open(linked, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 && errno == EACCES && lstat(linked, st) == 0 && st->st_nlink == 1 &&
        chmod(linked, 0600) == 0)
        fd = open(linked, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 || fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        int e = fd < 0 ? -errno : -EINVAL;
        if (fd >= 0)
            close(fd);
        return e;
    }
    return fd;
}

/* Names fd, the inode at linked as st, by hex, its bytes' hash, once
 * checked: a copy where the inode has another name (a kill between the
 * shim's link and the unlink it kept the file for) and may still change
 * through it, checked again after; else a link. The copy is held to the
 * journal's cap and to st's size: through that name a truncate -s 20G
 * takes no room, its copy would. Past the cap the linked name stays. */
static int name_checked(int fd, const struct stat *st, const char *dir, const char *linked,
                        const char *hex)
{
    struct stat now;
    if (st->st_nlink > 1) {
        char copied[RG_SHA256_HEX];
        if (st->st_size > rg_jstore_max_file())
            return -EFBIG;
        int e = lseek(fd, 0, SEEK_SET) == 0 ? rg_jstore_copy(fd, dir, copied, st->st_size) : -errno;
        if (e == 0 &&
            (fstat(fd, &now) != 0 || !rg_jstore_same_state(st, &now) || strcmp(copied, hex) != 0))
            e = -ESTALE;
        return e;
    }
    char obj[PATH_MAX + 128];
    snprintf(obj, sizeof obj, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, hex);
    if (fchmod(fd, 0600) != 0 && errno != EPERM)
        return -errno;
    return link_or_claim(linked, obj, st->st_size);
}

/* Gives the inode at linked, kept for r, its content name too (hex); a
 * version with those bytes kept already is the one that stays. An inode
 * written to since it was kept (store.h) is left alone (-ESTALE): named
 * by its new bytes, undo would restore them as the old. Its stamp is
 * checked after the read, so a write as it is hashed counts too (one that
 * grows it stops the read at the size it had). Its mtime
 * is how that is told, so nothing here sets it (nor need it: no prune runs
 * meanwhile, rg_jsettle_session); one named already is a settle killed
 * before its rename, and needs only that. */
static int name_by_content(const char *dir, const struct rg_jrec *r, const char *linked,
                           char hex[RG_SHA256_HEX])
{
    struct stat st = {0}, now;
    int fd = open_linked(linked, &st);
    if (fd < 0)
        return fd;
    int e = rg_jstore_hash_upto(fd, hex, st.st_size);
    if (e == 0 && fstat(fd, &now) != 0)
        e = -errno;
    if (e == 0 && !rg_jstore_named_by(dir, hex, &now))
        e = rg_jstore_same_state(&st, &now) && rg_jstore_stamp_kept(r, &now)
                ? name_checked(fd, &now, dir, linked, hex)
                : -ESTALE;
    close(fd);
    return e;
}

/* objects/ino-... becomes a symlink to objects/HEX, in one rename. */
static void settle_one(const char *dir, const struct rg_jrec *r)
{
    char linked[PATH_MAX + 128], tmp[PATH_MAX + 64], hex[RG_SHA256_HEX];
    snprintf(linked, sizeof linked, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, r->object);
    struct stat st;
    if (lstat(linked, &st) != 0 || !S_ISREG(st.st_mode) ||
        name_by_content(dir, r, linked, hex) != 0)
        return;
    snprintf(tmp, sizeof tmp, "%s/" RG_JOURNAL_OBJECTS "/.settle-%d", dir, (int)getpid());
    unlink(tmp);
    if (symlink(hex, tmp) != 0 || rename(tmp, linked) != 0)
        unlink(tmp);
}

void rg_jsettle(const char *dir, const struct rg_jlist *l, rg_jsettle_wanted_fn *wanted, void *arg)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->r[i].object && rg_jobject_is_linked(l->r[i].object) &&
            (!wanted || wanted(l->r[i].object, arg)))
            settle_one(dir, &l->r[i]);
}

/* Under the lock a prune holds (prune.c): a content object that no
 * session names yet and whose mtime is old is one it removes, and a link
 * named here is both until the rename that names it from the record's
 * linked name. A prune holding it settles the journal itself; what it
 * loaded too early waits for the next. */
void rg_jsettle_session(const char *dir, const char *id)
{
    int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
        if (lock >= 0)
            close(lock);
        return;
    }
    struct rg_jlist l = {0};
    if (rg_jlist_load(dir, id, &l) == 0)
        rg_jsettle(dir, &l, NULL, NULL);
    rg_jlist_free(&l);
    close(lock);
}
