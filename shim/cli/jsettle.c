#include "cli/jsettle.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "core/sha256.h"
/* Links linked to obj, or claims the version there already (same bytes):
 * a prune may be removing it, unnamed and old, as this names it. One the
 * prune took meanwhile is linked again. 0, or -errno. */
static int link_or_claim(const char *linked, const char *obj, int64_t size)
{
    for (int tries = 0;; tries++) {
        int e = link(linked, obj) == 0 ? 0 : errno == EEXIST ? rg_jstore_claim(obj, size) : -errno;
        if (e != -ENOENT || tries == 2)
            return e;
    }
}

/* Gives the inode at linked its content name too; a version with those
 * bytes kept already is the one that stays. With another name left outside
 * the journal (a kill between the shim's link and the unlink it kept the
 * file for), the bytes are copied instead: that inode may still change. */
static int name_by_content(const char *dir, const char *linked, char hex[RG_SHA256_HEX])
{
    int fd = open(linked, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 && errno == EACCES && lstat(linked, &st) == 0 && st.st_nlink == 1 &&
        chmod(linked, 0600) == 0)
        fd = open(linked, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? -errno : -EINVAL;
        if (fd >= 0)
            close(fd);
        return e;
    }
    int r;
    if (st.st_nlink > 1) {
        r = rg_jstore_copy(fd, dir, hex);
    } else if ((r = rg_jstore_hash_copy(fd, -1, hex)) == 0) {
        char obj[PATH_MAX + 128];
        snprintf(obj, sizeof obj, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, hex);
        /* Its mtime becomes the time it was kept, as a copy's is: pruning
         * goes by it. */
        bool ok = (fchmod(fd, 0600) == 0 || errno == EPERM) &&
                  (futimens(fd, NULL) == 0 || errno == EPERM);
        r = ok ? link_or_claim(linked, obj, st.st_size) : -errno;
    }
    close(fd);
    return r;
}

/* objects/ino-... becomes a symlink to objects/HEX, in one rename. An
 * inode written to since it was kept (through a descriptor still open on
 * the removed file) is left as it is, under the record it no longer
 * matches: named by its new bytes, undo would restore them as the old. */
static void settle_one(const char *dir, const struct rg_jrec *r)
{
    char linked[PATH_MAX + 128], tmp[PATH_MAX + 64], hex[RG_SHA256_HEX];
    snprintf(linked, sizeof linked, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, r->object);
    struct stat st;
    if (lstat(linked, &st) != 0 || !S_ISREG(st.st_mode) || !rg_jstore_kept_as_recorded(r, &st) ||
        name_by_content(dir, linked, hex) != 0)
        return;
    snprintf(tmp, sizeof tmp, "%s/" RG_JOURNAL_OBJECTS "/.settle-%d", dir, (int)getpid());
    unlink(tmp);
    if (symlink(hex, tmp) != 0 || rename(tmp, linked) != 0)
        unlink(tmp);
}

void rg_jsettle(const char *dir, const struct rg_jlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->r[i].object && rg_jobject_is_linked(l->r[i].object))
            settle_one(dir, &l->r[i]);
}

void rg_jsettle_session(const char *dir, const char *id)
{
    struct rg_jlist l = {0};
    if (rg_jlist_load(dir, id, &l) == 0)
        rg_jsettle(dir, &l);
    rg_jlist_free(&l);
}
