#include "cli/undo/spot.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/birth.h"
#include "os/clock.h"

#define DIR_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static bool dotted(const char *name, size_t n)
{
    return n == 0 || (n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.');
}

/* Gives the directory fd, just made, make's owner and group, as far as
 * this process may; failing that, it stays as made. Only a directory of
 * this process's own: a tree that swapped another in between the mkdir
 * and the open does not get it given away. */
static void give_dir(int fd, const struct rg_jspot_owner *make)
{
    uid_t uid = make->uid < 0 ? (uid_t)-1 : (uid_t)make->uid;
    gid_t gid = make->gid < 0 ? (gid_t)-1 : (gid_t)make->gid;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_uid != geteuid())
        return;
    if (fchownat(fd, "", uid, gid, AT_EMPTY_PATH) != 0 && errno == EPERM)
        (void)fchownat(fd, "", (uid_t)-1, gid, AT_EMPTY_PATH);
}

/* One step down from at to its directory comp, made first if missing and
 * make. An fd, or -errno (-ELOOP: comp is a symbolic link). */
static int step(int at, const char *comp, const struct rg_jspot_owner *make)
{
    int fd = openat(at, comp, DIR_FLAGS);
    if (fd < 0 && errno == ENOENT && make) {
        bool made = mkdirat(at, comp, 0777) == 0;
        if (made || errno == EEXIST)
            fd = openat(at, comp, DIR_FLAGS);
        if (made && fd >= 0)
            give_dir(fd, make);
    }
    if (fd >= 0)
        return fd;
    int e = errno;
    struct stat st;
    /* O_PATH|O_NOFOLLOW opens a link itself; O_DIRECTORY then refuses it
     * as ENOTDIR, which says nothing of why. */
    if (e == ENOTDIR && fstatat(at, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        e = ELOOP;
    return -e;
}

int rg_jspot_open(struct rg_jspot *s, const char *abs, const struct rg_jspot_owner *make)
{
    const char *slash = strrchr(abs, '/');
    *s = (struct rg_jspot){.dir = -1, .name = slash ? slash + 1 : abs};
    if (abs[0] != '/' || dotted(s->name, strlen(s->name)))
        return -EINVAL;
    int fd = open("/", DIR_FLAGS);
    if (fd < 0)
        return -errno;
    for (const char *p = abs + 1; p <= slash; p = strchr(p, '/') + 1) {
        char comp[NAME_MAX + 1];
        size_t n = (size_t)(strchr(p, '/') - p);
        int next = dotted(p, n) ? -EINVAL : n > NAME_MAX ? -ENAMETOOLONG : 0;
        if (next == 0) {
            memcpy(comp, p, n);
            comp[n] = '\0';
            next = step(fd, comp, make);
        }
        close(fd);
        if (next < 0) {
            s->bad = (size_t)(p - abs) + n;
            return next;
        }
        fd = next;
    }
    s->dir = fd;
    return 0;
}

/* target: stage a symbolic link to it, else a new regular file (an fd). */
static int create_named(struct rg_jspot *s, const char *abs, const char *target)
{
    int dir_len = (int)(s->name - 1 - abs);
    snprintf(s->shown, sizeof s->shown, "%.*s/%s", dir_len, abs, s->tmp);
    if (target)
        return symlinkat(target, s->dir, s->tmp);
    /* O_EXCL refuses any name there, a planted link included. */
    return openat(s->dir, s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

static int make_tmp(struct rg_jspot *s, const char *abs, const char *target)
{
    int pid = (int)getpid();
    int n = snprintf(s->tmp, sizeof s->tmp, ".%s.rg-undo-%d", s->name, pid);
    int fd = n > NAME_MAX ? (errno = ENAMETOOLONG, -1) : create_named(s, abs, target);
    if (fd < 0 && errno == ENAMETOOLONG) { /* the file's name leaves no room for ours */
        snprintf(s->tmp, sizeof s->tmp, ".rg-undo-%d", pid);
        fd = create_named(s, abs, target);
    }
    if (fd < 0)
        s->tmp[0] = '\0';
    return fd;
}

int rg_jspot_create_tmp(struct rg_jspot *s, const char *abs) { return make_tmp(s, abs, NULL); }

int rg_jspot_symlink_tmp(struct rg_jspot *s, const char *abs, const char *target)
{
    return make_tmp(s, abs, target);
}

/* Is fd, as st, the link to target this process made at since_ns? Its birth
 * time tells one renamed in from elsewhere (root's own, say) where the
 * file system keeps it; its ctime stands in where not, which a rename
 * moves too, leaving owner, link count and target to tell. Both are
 * compared by the second: a file system may keep no finer a time. */
static bool made_here(int fd, const struct stat *st, const char *target, int64_t since_ns)
{
    char now[PATH_MAX];
    if (!S_ISLNK(st->st_mode) || st->st_uid != geteuid() || st->st_nlink != 1)
        return false;
    ssize_t n = readlinkat(fd, "", now, sizeof now);
    if (n < 0 || (size_t)n != strlen(target) || memcmp(now, target, (size_t)n) != 0)
        return false;
    int64_t born = rg_birth_ns_fd(fd, st->st_dev, st->st_ino);
    int64_t second = since_ns - (since_ns % 1000000000 + 1000000000) % 1000000000;
    return (born ? born : rg_timespec_ns(&st->st_ctim)) >= second;
}

int rg_jspot_open_link_tmp(const struct rg_jspot *s, const char *target, int64_t since_ns)
{
    struct stat st;
    int fd = openat(s->dir, s->tmp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) == 0 && made_here(fd, &st, target, since_ns))
        return fd;
    close(fd);
    errno = ESTALE;
    return -1;
}

void rg_jspot_drop_tmp(struct rg_jspot *s)
{
    if (s->dir >= 0 && s->tmp[0])
        unlinkat(s->dir, s->tmp, 0);
    s->tmp[0] = '\0';
}

void rg_jspot_close(struct rg_jspot *s)
{
    if (s->dir >= 0)
        close(s->dir);
    s->dir = -1;
}
