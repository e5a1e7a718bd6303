#include "cli/journal/symlink.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/jrecord.h"

ssize_t rg_jsym_target(const char *dir, const char *object, char *out, size_t cap, struct stat *st)
{
    char obj[PATH_MAX + 80];
    struct stat own = {0};
    st = st ? st : &own;
    if (!rg_jobject_valid(object))
        return -EINVAL;
    snprintf(obj, sizeof obj, "%s/" RG_JOURNAL_OBJECTS "/%s", dir, object);
    if (lstat(obj, st) != 0)
        return -errno;
    if (!S_ISLNK(st->st_mode))
        return -EINVAL;
    ssize_t n = readlink(obj, out, cap);
    if (n < 0)
        return -errno;
    if ((size_t)n >= cap)
        return -ENAMETOOLONG;
    out[n] = '\0';
    return n;
}

bool rg_jsym_holds(const char *dir, const char *object, const char *abs)
{
    char kept[PATH_MAX], now[PATH_MAX];
    ssize_t k = rg_jsym_target(dir, object, kept, sizeof kept, NULL);
    ssize_t n = k < 0 ? -1 : readlink(abs, now, sizeof now);
    return n == k && memcmp(kept, now, (size_t)n) == 0;
}

/* The link at/name, named obj in the journal: its inode itself, else (the
 * journal on another file system) a new link with its target. */
static int put_in_journal(int at, const char *name, const char *obj)
{
    if (linkat(at, name, AT_FDCWD, obj, 0) == 0)
        return 0;
    if (errno != EXDEV && errno != EPERM && errno != EMLINK)
        return -errno;
    char target[PATH_MAX];
    ssize_t n = readlinkat(at, name, target, sizeof target);
    if (n < 0 || (size_t)n >= sizeof target)
        return n < 0 ? -errno : -ENAMETOOLONG;
    target[n] = '\0';
    return symlink(target, obj) == 0 ? 0 : -errno;
}

int rg_jsym_keep_at(const char *dir, const char *id, int at, const char *name, const char *abs,
                    const char *op, struct rg_jkept *kept)
{
    struct stat st, now, there;
    char objects[PATH_MAX + 16], obj[PATH_MAX + 128], object[RG_JOURNAL_OBJECT_MAX];
    kept->st.st_mode = 0;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : -errno;
    if (!S_ISLNK(st.st_mode))
        return 0;
    snprintf(objects, sizeof objects, "%s/" RG_JOURNAL_OBJECTS, dir);
    if (mkdir(objects, 0700) != 0 && errno != EEXIST)
        return -errno;
    rg_jobject_linked(object, st.st_dev, st.st_ino,
                      (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec);
    snprintf(obj, sizeof obj, "%s/%s", objects, object);
    int r = put_in_journal(at, name, obj);
    /* Kept already, by the shim or an earlier undo, in this very state. */
    if (r == -EEXIST && lstat(obj, &there) == 0 && S_ISLNK(there.st_mode) &&
        there.st_ino == st.st_ino && there.st_dev == st.st_dev)
        r = 0;
    if (r < 0)
        return r;
    /* A link's own ctime moves with the journal's link: as kept, bar that. */
    if (fstatat(at, name, &now, AT_SYMLINK_NOFOLLOW) != 0 || now.st_ino != st.st_ino ||
        now.st_dev != st.st_dev || !S_ISLNK(now.st_mode))
        return -EAGAIN;
    kept->st = st;
    kept->hex[0] = '\0';
    return rg_jstore_record(dir, id, abs, op, &st, object);
}
