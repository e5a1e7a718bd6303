/* A statically linked file tool for the supervised-mode tests: the preload
 * shim cannot see it, only the supervisor can.
 *   rgstatic read F | write F TEXT | append F TEXT | rename FROM TO | truncate F
 *            | unlink F | chmod F | fchmod F | chown F | fchown F | utimens F | futimens F
 *            | openat2 F path|read|write | opath F | cd DIR | at DIR
 * (chmod to 0600, chown to the caller's own ids, times to 2001-09-09;
 * openat2 asks for O_PATH, O_RDONLY or O_WRONLY|O_TRUNC; opath is how
 * openat2's users get an O_PATH descriptor: openat2, and openat if the
 * kernel has no openat2, then checks the descriptor is O_PATH, on F;
 * at makes the later reads and writes open their names in DIR, as
 * coreutils' cp does, by a descriptor of it)
 * Operations run in order; each prints "ok" or "err ENAME"; the first
 * failure ends the program with status 1. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Where read and write open their names: at DIR sets it. */
static int at = AT_FDCWD;

static int put(int fd, const char *text)
{
    size_t n = strlen(text);
    return write(fd, text, n) == (ssize_t)n ? 0 : -1;
}

/* The metadata calls, each on F by name or through a descriptor. */
static int meta(const char *op, const char *f)
{
    const struct timespec ts[2] = {{1000000000, 0}, {1000000000, 0}};
    bool by_fd = op[0] == 'f';
    int fd = by_fd ? open(f, O_RDONLY) : AT_FDCWD, r;
    if (fd == -1)
        return -1;
    const char *name = op + by_fd;
    if (strcmp(name, "chmod") == 0)
        r = by_fd ? fchmod(fd, 0600) : chmod(f, 0600);
    else if (strcmp(name, "chown") == 0)
        r = by_fd ? fchown(fd, getuid(), getgid()) : chown(f, getuid(), getgid());
    else if (strcmp(name, "utimens") == 0)
        r = by_fd ? futimens(fd, ts) : utimensat(AT_FDCWD, f, ts, 0);
    else {
        errno = EINVAL;
        r = -1;
    }
    if (by_fd)
        close(fd);
    return r;
}

static int openat2_as(const char *f, const char *how_name)
{
    struct open_how how = {.flags = O_CLOEXEC};
    if (strcmp(how_name, "path") == 0)
        how.flags |= O_PATH;
    else if (strcmp(how_name, "write") == 0)
        how.flags |= O_WRONLY | O_TRUNC;
    else if (strcmp(how_name, "read") != 0) {
        errno = EINVAL;
        return -1;
    }
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, f, &how, sizeof how);
    return fd < 0 ? -1 : close(fd);
}

static int opath(const char *f)
{
    struct open_how how = {.flags = O_PATH | O_CLOEXEC};
    struct stat want, got;
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, f, &how, sizeof how);
    if (fd < 0 && errno == ENOSYS)
        fd = openat(AT_FDCWD, f, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int r = fstat(fd, &got) == 0 && stat(f, &want) == 0 ? 0 : -1;
    if (r == 0 && (!(fcntl(fd, F_GETFL) & O_PATH) || got.st_ino != want.st_ino ||
                   got.st_dev != want.st_dev)) {
        errno = EBADFD;
        r = -1;
    }
    close(fd);
    return r;
}

static int run(const char *op, char **arg, int *used)
{
    char buf[4096];
    int fd, r = 0;
    *used = 1;
    if (strcmp(op, "read") == 0) {
        if ((fd = openat(at, arg[0], O_RDONLY)) < 0)
            return -1;
        while ((r = (int)read(fd, buf, sizeof buf)) > 0)
            ;
        close(fd);
        return r;
    }
    if (strcmp(op, "write") == 0 || strcmp(op, "append") == 0) {
        *used = 2;
        int how = op[0] == 'w' ? O_TRUNC : O_APPEND;
        if ((fd = openat(at, arg[0], O_WRONLY | O_CREAT | how, 0666)) < 0)
            return -1;
        r = put(fd, arg[1]);
        return close(fd) < 0 ? -1 : r;
    }
    if (strcmp(op, "rename") == 0) {
        *used = 2;
        return rename(arg[0], arg[1]);
    }
    if (strcmp(op, "cd") == 0)
        return chdir(arg[0]);
    if (strcmp(op, "at") == 0)
        return (at = open(arg[0], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ? -1 : 0;
    if (strcmp(op, "truncate") == 0)
        return truncate(arg[0], 0);
    if (strcmp(op, "unlink") == 0)
        return unlink(arg[0]);
    if (strcmp(op, "opath") == 0)
        return opath(arg[0]);
    if (strcmp(op, "openat2") == 0) {
        *used = 2;
        return openat2_as(arg[0], arg[1]);
    }
    if (strstr(op, "chmod") || strstr(op, "chown") || strstr(op, "utime"))
        return meta(op, arg[0]);
    errno = EINVAL;
    return -1;
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc;) {
        int used;
        if (run(argv[i], argv + i + 1, &used) < 0) {
            printf("err %s\n", strerrorname_np(errno));
            return 1;
        }
        printf("ok\n");
        i += 1 + used;
    }
    return 0;
}
