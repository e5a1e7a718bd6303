/* The floor library's renames (tests/bench/rgfloor.c), with
 * RG_FLOOR_RENAME=1: the system calls the shim adds to a rename onto a
 * free name, as an atomic save makes it (python's compileall renames each
 * .pyc's temporary file onto the .pyc), and nothing else. Inside a signal
 * mask pair: each name's directory opened O_PATH, once for two names in
 * one directory (guard/anchor.c); the old name looked at (what the session
 * knows of the file moves with it) and the new one (what the rename would
 * replace); the rename made with RENAME_NOREPLACE where the new name was
 * free, so that a file appearing there meanwhile is not replaced unjudged
 * (guard/rename.c); and after it the new name looked at again (the rename
 * moved the file's ctime: the restamp of what the session knew). What a
 * rename over a file adds beyond that look (holding it, the journal's
 * copy) is not made. Unset, each hook is the raw system call. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "rawsys.h"
#include "rgfloor.h"

#define EXPORT __attribute__((visibility("default")))

static bool renames;

__attribute__((constructor)) static void rename_init(void)
{
    const char *r = getenv("RG_FLOOR_RENAME");
    renames = r && *r == '1';
}

static long renameat2_raw(int from, const char *old, int to, const char *new, unsigned flags)
{
    return raw_sys5(SYS_renameat2, from, (long)old, to, (long)new, flags);
}

static long look(int dirfd, const char *name)
{
    struct stat st;
    return raw_sys4(SYS_newfstatat, dirfd, (long)name, (long)&st, AT_SYMLINK_NOFOLLOW);
}

/* A name and the directory it is looked up in, opened as the shim's
 * anchor opens it: the part up to the last slash, or "." (a name ending
 * in a slash counts as a bare name). */
struct anchor {
    int at, fd;
    bool owned;
    const char *name;
    char dir[PATH_MAX];
};

static bool anchor(struct anchor *a, const struct anchor *first, int dirfd, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) + 1 : 0;
    a->at = a->fd = dirfd;
    a->owned = false;
    a->name = path;
    if (!slash || !slash[1] || len >= sizeof a->dir) {
        memcpy(a->dir, ".", 2);
    } else {
        memcpy(a->dir, path, len);
        a->dir[len] = '\0';
        a->name = slash + 1;
    }
    if (first && first->owned && first->at == dirfd && strcmp(first->dir, a->dir) == 0) {
        a->fd = first->fd;
        return true;
    }
    long fd = raw_sys4(SYS_openat, dirfd, (long)a->dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    a->owned = fd >= 0;
    a->fd = a->owned ? (int)fd : dirfd;
    return a->owned;
}

static void drop(const struct anchor *a)
{
    if (a->owned)
        raw_sys4(SYS_close, a->fd, 0, 0, 0);
}

static long rename_as_shim(int olddir, const char *old, int newdir, const char *new, unsigned flags)
{
    struct anchor from, to = {.owned = false};
    sigset_t mask;
    long r;
    rg_floor_block(&mask);
    if (!anchor(&from, NULL, olddir, old) || !anchor(&to, &from, newdir, new)) {
        r = renameat2_raw(olddir, old, newdir, new, flags);
    } else {
        look(from.fd, from.name);
        bool free = look(to.fd, to.name) != 0;
        unsigned f = flags | (free && !(flags & RENAME_EXCHANGE) ? RENAME_NOREPLACE : 0);
        r = renameat2_raw(from.fd, from.name, to.fd, to.name, f);
        if ((r == -EINVAL || r == -EEXIST) && f != flags)
            r = renameat2_raw(from.fd, from.name, to.fd, to.name, flags);
        if (r == 0)
            look(to.fd, to.name);
    }
    drop(&to);
    drop(&from);
    rg_floor_restore(&mask);
    return r;
}

static int floor_rename(int olddir, const char *old, int newdir, const char *new, unsigned flags)
{
    long r = renames && old && new ? rename_as_shim(olddir, old, newdir, new, flags)
                                   : renameat2_raw(olddir, old, newdir, new, flags);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    return 0;
}

EXPORT int rename(const char *old, const char *new)
{
    return floor_rename(AT_FDCWD, old, AT_FDCWD, new, 0);
}

EXPORT int renameat(int olddir, const char *old, int newdir, const char *new)
{
    return floor_rename(olddir, old, newdir, new, 0);
}

EXPORT int renameat2(int olddir, const char *old, int newdir, const char *new, unsigned flags)
{
    return floor_rename(olddir, old, newdir, new, flags);
}
