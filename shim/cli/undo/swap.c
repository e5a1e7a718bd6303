#include "cli/undo/swap.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/journal/store.h"
#include "cli/journal/symlink.h"
#include "cli/undo/writers.h"
#include "os/clock.h"

/* Is the displaced file, now, open in fd, the file kept, untouched? Not by
 * ctime: the exchange itself moves the displaced inode's. Then by its bytes:
 * a rewrite of the same size within the clock tick of the kept mtime leaves
 * the rest as it was. One that cannot be read is not taken as untouched. */
static bool same_file(const struct rg_jkept *kept, const struct stat *now, int fd)
{
    const struct stat *k = &kept->st;
    char hex[RG_SHA256_HEX];
    if (k->st_mode == 0 || k->st_dev != now->st_dev || k->st_ino != now->st_ino ||
        k->st_size != now->st_size || k->st_mtim.tv_sec != now->st_mtim.tv_sec ||
        k->st_mtim.tv_nsec != now->st_mtim.tv_nsec)
        return false;
    bool same = fd >= 0 && rg_jstore_hash_copy(fd, -1, hex) == 0 && strcmp(hex, kept->hex) == 0;
    return lseek(fd, 0, SEEK_SET) == 0 && same;
}

/* Links the file at s->name beside it, at aside, and opens it there: a
 * rename over it then leaves it a name, so a write caught in it stays
 * there, whatever its size, with nothing copied. -1 where it cannot be
 * linked (a file system without hard links; nothing, or no file, there). */
static int link_aside(const struct rg_jspot *s, char *aside, size_t size)
{
    snprintf(aside, size, "%s.old", s->tmp);
    if (linkat(s->dir, s->name, s->dir, aside, 0) != 0)
        return -1;
    int fd = openat(s->dir, aside, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    /* A symbolic link is held as itself, to be kept as one. */
    if (fd < 0 && errno == ELOOP)
        fd = openat(s->dir, aside, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        unlinkat(s->dir, aside, 0);
    return fd;
}

/* Where the filesystem cannot exchange: a plain rename, with the file it
 * replaces linked aside (else held open) across it, so an in-place write
 * before the rename is still seen; once s->tmp is free, that name is
 * moved there (*named), as an exchange leaves it. A file that replaces
 * abs between that link and the rename is the one write this cannot see. */
static int rename_over(const struct rg_jspot *s, int *old, bool *named)
{
    char aside[sizeof s->tmp + 8];
    *old = link_aside(s, aside, sizeof aside);
    bool linked = *old >= 0;
    if (!linked)
        *old = openat(s->dir, s->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (renameat2(s->dir, s->tmp, s->dir, s->name, 0) == 0 ||
        (errno == ENOSYS && renameat(s->dir, s->tmp, s->dir, s->name) == 0)) {
        *named = linked && renameat(s->dir, aside, s->dir, s->tmp) == 0;
        if (linked && !*named)
            unlinkat(s->dir, aside, 0);
        return 0;
    }
    int e = -errno;
    if (linked)
        unlinkat(s->dir, aside, 0);
    if (*old >= 0)
        close(*old);
    *old = -1;
    return e;
}

/* Puts s->tmp at s->name; *old is what it displaced, open (-1: nothing),
 * and *named whether that is still at s->tmp. 0, or -errno. */
static int put_in_place(const struct rg_jspot *s, int *old, bool *named)
{
    *old = -1;
    *named = false;
    for (int tries = 0; tries < 3; tries++) {
        if (renameat2(s->dir, s->tmp, s->dir, s->name, RENAME_EXCHANGE) == 0) {
            struct stat st;
            if (fstatat(s->dir, s->tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
                /* A directory made at abs meanwhile: put it back. */
                renameat2(s->dir, s->tmp, s->dir, s->name, RENAME_EXCHANGE);
                return -EISDIR;
            }
            *named = true;
            *old = openat(s->dir, s->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
            return 0;
        }
        if (errno == EINVAL || errno == ENOSYS)
            return rename_over(s, old, named);
        if (errno != ENOENT)
            return -errno;
        /* Nothing at abs: recreated, unless a file appeared meanwhile,
         * which is then exchanged like any other. */
        if (renameat2(s->dir, s->tmp, s->dir, s->name, RENAME_NOREPLACE) == 0)
            return 0;
        if (errno == EINVAL || errno == ENOSYS)
            return rename_over(s, old, named);
        if (errno != EEXIST)
            return -errno;
    }
    return -EAGAIN;
}

/* Keeps the bytes a write left in the displaced file, open in old (-1:
 * it could not be opened, for why), as the newest session's version of
 * abs. 0, or -errno. */
static int keep_caught(const char *dir, const struct rg_jspot *s, const char *abs, int old, int why)
{
    if (old < 0)
        return -why;
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, rg_now_ns(), (int32_t)getpid());
    int e = rg_jstore_keep_fd(dir, id, abs, old, "undo");
    if (e == 0)
        rg_jstore_end_at(dir, id, s->dir, s->name, abs);
    return e;
}

/* Was the symbolic link displaced, as now, the one undo kept? A link's
 * target cannot change: its inode tells. */
static bool same_link(const struct rg_jkept *kept, const struct stat *now)
{
    return S_ISLNK(kept->st.st_mode) && kept->st.st_dev == now->st_dev &&
           kept->st.st_ino == now->st_ino;
}

/* Keeps the symbolic link that took abs's place after undo kept it, at
 * s->tmp once displaced (named), as the newest session's version of abs,
 * as keep_caught does a write. 0, or -errno (-EOPNOTSUPP: not named, the
 * rename fallback could not link it aside, and it is gone). */
static int keep_link(const char *dir, const struct rg_jspot *s, const char *abs, bool named)
{
    if (!named)
        return -EOPNOTSUPP;
    char id[RG_JOURNAL_ID_MAX];
    struct rg_jkept k;
    rg_journal_id(id, rg_now_ns(), (int32_t)getpid());
    int e = rg_jsym_keep_at(dir, id, s->dir, s->tmp, abs, "undo", &k);
    if (e == 0 && k.st.st_mode == 0)
        e = -ENOENT;
    if (e == 0)
        rg_jstore_end_at(dir, id, s->dir, s->name, abs);
    return e;
}

/* After a rename fallback, the bytes a write left that the journal could
 * not take have no name but old: copied to s->tmp, beside the file, held
 * to the journal's cap, as a file the journal refused for its size would
 * fill this disk instead. */
static bool leave_beside(int old, const struct rg_jspot *s)
{
    char hex[RG_SHA256_HEX];
    int dst = old < 0 ? -1
                      : openat(s->dir, s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                               0600);
    if (dst < 0)
        return false;
    bool ok = lseek(old, 0, SEEK_SET) == 0 && rg_jstore_hash_copy_capped(old, dst, hex) == 0;
    if (close(dst) != 0 || !ok) {
        unlinkat(s->dir, s->tmp, 0);
        return false;
    }
    return true;
}

int rg_jswap_restore(const char *dir, const struct rg_jspot *s, const char *abs,
                     const struct rg_jkept *kept, struct rg_jswap *out)
{
    int old;
    bool named;
    *out = (struct rg_jswap){0};
    int r = put_in_place(s, &old, &named);
    if (r < 0)
        return r;
    int why = errno; /* of the open of what was displaced, when it failed */
    struct stat now;
    bool seen = named ? fstatat(s->dir, s->tmp, &now, AT_SYMLINK_NOFOLLOW) == 0
                      : old >= 0 && fstat(old, &now) == 0;
    bool reg = seen && S_ISREG(now.st_mode);
    /* Looked for before the bytes are: a process that writes after that
     * look holds the file now. */
    out->writer = reg && old >= 0 ? rg_writer_of(old) : 0;
    /* A symbolic link put in its place since undo kept it is the tree's
     * own to lose, but nothing is lost: it is kept, as a write is. */
    out->link = seen && S_ISLNK(now.st_mode) && !same_link(kept, &now);
    out->caught = out->link || (reg && !same_file(kept, &now, old));
    if (out->caught)
        out->unkept =
            out->link ? -keep_link(dir, s, abs, named) : -keep_caught(dir, s, abs, old, why);
    out->left = named       ? out->unkept || out->writer
                : out->link ? false
                            : out->unkept && leave_beside(old, s);
    if (old >= 0)
        close(old);
    if (named && !out->left)
        unlinkat(s->dir, s->tmp, 0);
    return 0;
}
