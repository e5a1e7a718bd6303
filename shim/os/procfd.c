#include "os/procfd.h"
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "core/outputs.h"
#include "core/text.h"
#include "os/sys.h"
/* Is d_name the number skip? */
static bool is_fd(const char *name, int skip)
{
    int n = 0;
    for (; *name >= '0' && *name <= '9' && n < 100000000; name++)
        n = n * 10 + (*name - '0');
    return !*name && n == skip;
}

bool rg_pid_holds(int32_t pid, uint64_t dev, uint64_t ino, int skip)
{
    char dir[64], buf[4096];
    if (pid <= 0)
        return false;
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    int dfd = rg_sys_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0)
        return false;
    bool held = false;
    long n;
    while (!held && (n = rg_syscall6(SYS_getdents64, dfd, (long)buf, sizeof buf, 0, 0, 0)) > 0) {
        for (long off = 0; off < n && !held;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            struct stat st, link;
            /* Open for writing: the link's own mode is the descriptor's
             * access (S_IWUSR for a writer). A descriptor only read from
             * says nothing of a count left by a writer killed meanwhile. */
            held = d->d_name[0] != '.' && !(skip >= 0 && is_fd(d->d_name, skip)) &&
                   rg_sys_fstatat(dfd, d->d_name, &st, 0) == 0 && st.st_ino == ino &&
                   st.st_dev == dev &&
                   rg_sys_fstatat(dfd, d->d_name, &link, AT_SYMLINK_NOFOLLOW) == 0 &&
                   (link.st_mode & S_IWUSR);
            off += d->d_reclen;
        }
    }
    rg_sys_close(dfd);
    return held;
}

/* Does fd write a regular file? Its stat into st. */
static bool fd_writes(int fd, struct stat *st)
{
    int fl;
    return rg_sys_fstat(fd, st) == 0 && S_ISREG(st->st_mode) && (fl = rg_sys_getfl(fd)) >= 0 &&
           (fl & O_ACCMODE) != O_RDONLY;
}

bool rg_std_writes(uint64_t dev, uint64_t ino)
{
    /* The inode first, then the access mode: output redirected to a file
     * (`CMD >log 2>&1`, as an agent runs a command) is the common case,
     * and its F_GETFL would be two calls more per kept file, for a file
     * that is not the one kept. */
    for (int fd = 0; fd <= 2; fd++) {
        struct stat st;
        int fl;
        if (rg_sys_fstat(fd, &st) == 0 && st.st_ino == ino && st.st_dev == dev &&
            S_ISREG(st.st_mode) && (fl = rg_sys_getfl(fd)) >= 0 && (fl & O_ACCMODE) != O_RDONLY)
            return true;
    }
    return false;
}

void rg_outputs_note(struct rg_header *h)
{
    char buf[4096];
    int dfd = rg_sys_openat(AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0) {
        for (int fd = 0; fd <= 2; fd++) {
            struct stat st;
            if (fd_writes(fd, &st))
                rg_outputs_add(h, st.st_dev, st.st_ino);
        }
        return;
    }
    long n;
    while ((n = rg_syscall6(SYS_getdents64, dfd, (long)buf, sizeof buf, 0, 0, 0)) > 0) {
        for (long off = 0; off < n;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            struct stat st, link;
            /* The link's own mode is the descriptor's access, as above. */
            if (d->d_name[0] != '.' && rg_sys_fstatat(dfd, d->d_name, &st, 0) == 0 &&
                S_ISREG(st.st_mode) &&
                rg_sys_fstatat(dfd, d->d_name, &link, AT_SYMLINK_NOFOLLOW) == 0 &&
                (link.st_mode & S_IWUSR))
                rg_outputs_add(h, st.st_dev, st.st_ino);
            off += d->d_reclen;
        }
    }
    rg_sys_close(dfd);
}

long rg_fd_path(int fd, char *out, size_t cap)
{
    char link[RG_FD_LINK_MAX];
    rg_fd_link(link, fd);
    ssize_t n = readlink(link, out, cap - 1);
    if (n <= 0 || out[0] != '/')
        return -1;
    out[n] = '\0';
    return (long)n;
}
