/*
 * rgprobe: make exactly one libc call (or one small open/read|write/close
 * sequence) and report the outcome, for the readguard end-to-end tests.
 * Modelled on the Gentoo sandbox test drivers.
 *
 *   rgprobe open PATH FLAGS [MODE]         open(2) via libc
 *   rgprobe openat DIR PATH FLAGS [MODE]   openat with DIR opened O_RDONLY|O_DIRECTORY
 *   rgprobe creat PATH [MODE]
 *   rgprobe fopen PATH MODE
 *   rgprobe freopen PATH MODE              freopen onto a stream opened on /dev/null
 *   rgprobe rename OLD NEW
 *   rgprobe renameat OLD NEW               renameat(AT_FDCWD, OLD, AT_FDCWD, NEW)
 *   rgprobe renameat2 OLD NEW FLAGS        glibc wrapper; FLAGS 0|RENAME_NOREPLACE|RENAME_EXCHANGE
 *   rgprobe truncate PATH LEN
 *   rgprobe sys_open PATH FLAGS [MODE]     syscall(SYS_open, ...)
 *   rgprobe sys_openat PATH FLAGS [MODE]   syscall(SYS_openat, AT_FDCWD, ...)
 *   rgprobe sys_openat2 PATH FLAGS [MODE]  syscall(SYS_openat2, AT_FDCWD, &how, sizeof how)
 *   rgprobe sys_rename OLD NEW             syscall(SYS_rename, ...)
 *   rgprobe sys_renameat2 OLD NEW FLAGS    syscall(SYS_renameat2, ...)
 *   rgprobe sys_truncate PATH LEN          syscall(SYS_truncate, ...)
 *   rgprobe read PATH                      open O_RDONLY, read everything, close
 *   rgprobe write PATH TEXT                open O_WRONLY|O_TRUNC|O_CREAT, write TEXT, close
 *   rgprobe append PATH TEXT               open O_WRONLY|O_APPEND, write TEXT, close
 *   rgprobe sys_close_write PATH TEXT      as write, but closed by syscall(SYS_close) (libuv)
 *   rgprobe opath PATH                     open O_PATH, close
 *   rgprobe print TEXT                     TEXT on stdout through stdio, no other call: the
 *                                          shim sees the process only at exit
 *   rgprobe print_err TEXT                 the same on stderr, made fully buffered
 *   rgprobe print_fd1 TEXT                 the same on a second stream fdopen'd on 1
 *   rgprobe print_close_both TEXT          TEXT on stdout and stderr, then fclose of both
 *   rgprobe print_close_out TEXT           the same, stderr's left for exit
 *
 * FLAGS is a '|'-separated list of O_* names and/or numbers.
 * Output on stdout: "ok" ("ok FD" for opens; the fd is closed right away and
 * nothing is written through it) or "err ENAME".
 * Exit status: 0 ok, 1 err, 2 usage, 3 errno changed by a successful call
 * (errno is set to 12345 before every call and must still be 12345 after a
 * call that succeeded: the shim must preserve errno).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

#define ERRNO_SENTINEL 12345

static const struct {
    int e;
    const char *name;
} errtab[] = {
    {EACCES, "EACCES"},
    {ENOENT, "ENOENT"},
    {EEXIST, "EEXIST"},
    {EISDIR, "EISDIR"},
    {ENOTDIR, "ENOTDIR"},
    {EINVAL, "EINVAL"},
    {EPERM, "EPERM"},
    {ELOOP, "ELOOP"},
    {ENXIO, "ENXIO"},
    {EBADF, "EBADF"},
    {ENOSYS, "ENOSYS"},
    {EXDEV, "EXDEV"},
    {ENOTEMPTY, "ENOTEMPTY"},
    {EROFS, "EROFS"},
    {EBUSY, "EBUSY"},
    {ETXTBSY, "ETXTBSY"},
    {EFBIG, "EFBIG"},
    {E2BIG, "E2BIG"},
    {ENAMETOOLONG, "ENAMETOOLONG"},
    {EOPNOTSUPP, "EOPNOTSUPP"},
};

static const struct {
    const char *name;
    long value;
} flagtab[] = {
    {"O_RDONLY", O_RDONLY},
    {"O_WRONLY", O_WRONLY},
    {"O_RDWR", O_RDWR},
    {"O_CREAT", O_CREAT},
    {"O_EXCL", O_EXCL},
    {"O_TRUNC", O_TRUNC},
    {"O_APPEND", O_APPEND},
    {"O_NOCTTY", O_NOCTTY},
    {"O_NONBLOCK", O_NONBLOCK},
    {"O_DIRECTORY", O_DIRECTORY},
    {"O_NOFOLLOW", O_NOFOLLOW},
    {"O_CLOEXEC", O_CLOEXEC},
    {"O_PATH", O_PATH},
    {"O_TMPFILE", O_TMPFILE},
    {"O_SYNC", O_SYNC},
    {"O_DSYNC", O_DSYNC},
    {"O_NOATIME", O_NOATIME},
    {"O_LARGEFILE", O_LARGEFILE},
    {"RENAME_NOREPLACE", RENAME_NOREPLACE},
    {"RENAME_EXCHANGE", RENAME_EXCHANGE},
    {"RENAME_WHITEOUT", RENAME_WHITEOUT},
};

static const char *prog = "rgprobe";

static void usage(void)
{
    fprintf(stderr,
            "usage: %s OP ARGS...\n"
            "ops: open PATH FLAGS [MODE] | openat DIR PATH FLAGS [MODE] |"
            " creat PATH [MODE] | fopen PATH MODE | freopen PATH MODE |"
            " rename OLD NEW | renameat OLD NEW | renameat2 OLD NEW FLAGS |"
            " truncate PATH LEN | sys_open PATH FLAGS [MODE] |"
            " sys_openat PATH FLAGS [MODE] | sys_openat2 PATH FLAGS [MODE] |"
            " sys_rename OLD NEW | sys_renameat2 OLD NEW FLAGS |"
            " sys_truncate PATH LEN | read PATH | write PATH TEXT |"
            " append PATH TEXT | opath PATH\n",
            prog);
    exit(2);
}

static const char *errname(int e)
{
    static char buf[32];
    size_t i;

    for (i = 0; i < sizeof errtab / sizeof errtab[0]; i++)
        if (errtab[i].e == e)
            return errtab[i].name;
    snprintf(buf, sizeof buf, "E%d", e);
    return buf;
}

static long parse_flags(const char *s)
{
    long v = 0;
    char *copy = strdup(s), *save = NULL, *tok;

    if (!copy) {
        perror("strdup");
        exit(2);
    }
    for (tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
        size_t i;
        int found = 0;

        while (*tok == ' ')
            tok++;
        for (i = 0; i < sizeof flagtab / sizeof flagtab[0]; i++) {
            if (strcmp(tok, flagtab[i].name) == 0) {
                v |= flagtab[i].value;
                found = 1;
                break;
            }
        }
        if (!found) {
            char *end;
            long n = strtol(tok, &end, 0);

            if (*tok == '\0' || *end != '\0') {
                fprintf(stderr, "%s: unknown flag '%s'\n", prog, tok);
                exit(2);
            }
            v |= n;
        }
    }
    free(copy);
    return v;
}

static mode_t parse_mode(const char *s)
{
    char *end;
    long m = strtol(s, &end, 8);

    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "%s: bad mode '%s'\n", prog, s);
        exit(2);
    }
    return (mode_t)m;
}

static long long parse_len(const char *s)
{
    char *end;
    long long n = strtoll(s, &end, 0);

    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "%s: bad length '%s'\n", prog, s);
        exit(2);
    }
    return n;
}

/* Report a failed call (never returns). */
static void fail_with(int e)
{
    printf("err %s\n", errname(e));
    fflush(stdout);
    exit(1);
}

/* After a call that succeeded: errno must be untouched. */
static void check_errno(int e, const char *what)
{
    if (e != ERRNO_SENTINEL) {
        printf("errno-clobbered %s %d (%s)\n", what, e, errname(e));
        fflush(stdout);
        exit(3);
    }
}

static int needs_mode(int flags) { return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE; }

/*
 * The two-argument calls matter: with -D_FORTIFY_SOURCE=2 and flags that
 * are not a compile-time constant, glibc turns them into __open_2 and
 * __openat_2 (__open64_2/__openat64_2 with _FILE_OFFSET_BITS=64).
 */
static int call_open(const char *path, int flags, mode_t mode)
{
    if (needs_mode(flags))
        return open(path, flags, mode);
    return open(path, flags);
}

static int call_openat(int dirfd, const char *path, int flags, mode_t mode)
{
    if (needs_mode(flags))
        return openat(dirfd, path, flags, mode);
    return openat(dirfd, path, flags);
}

static void report_fd(int fd, int e, const char *what)
{
    if (fd < 0)
        fail_with(e);
    check_errno(e, what);
    printf("ok %d\n", fd);
    close(fd);
}

static void report_rc(long rc, int e, const char *what)
{
    if (rc < 0)
        fail_with(e);
    check_errno(e, what);
    printf("ok\n");
}

int main(int argc, char **argv)
{
    const char *op;
    int e;

    if (argc < 2)
        usage();
    op = argv[1];
    argc -= 2;
    argv += 2;

    if (strcmp(op, "print") == 0) {
        if (argc != 1)
            usage();
        fputs(argv[0], stdout);
        return 0;
    }
    if (strcmp(op, "print_err") == 0) {
        static char buf[BUFSIZ];
        if (argc != 1 || setvbuf(stderr, buf, _IOFBF, sizeof buf) != 0)
            usage();
        fputs(argv[0], stderr);
        return 0;
    }
    /* As coreutils' close_stdout lets go of 1 and then 2 (print_close_both):
     * two let-gos of a process that made no hooked call before. */
    if (strcmp(op, "print_close_both") == 0 || strcmp(op, "print_close_out") == 0) {
        static char buf[BUFSIZ];
        if (argc != 1 || setvbuf(stderr, buf, _IOFBF, sizeof buf) != 0)
            usage();
        fputs(argv[0], stdout);
        fputs(argv[0], stderr);
        if (fclose(stdout) != 0)
            return 1;
        return strcmp(op, "print_close_both") == 0 && fclose(stderr) != 0;
    }
    if (strcmp(op, "print_fd1") == 0) {
        FILE *out = argc == 1 ? fdopen(1, "w") : NULL;
        if (!out)
            usage();
        fputs(argv[0], out);
        return 0;
    }
    if (strcmp(op, "open") == 0 || strcmp(op, "sys_open") == 0 || strcmp(op, "sys_openat") == 0 ||
        strcmp(op, "sys_openat2") == 0) {
        int flags, fd;
        mode_t mode = 0644;

        if (argc < 2 || argc > 3)
            usage();
        flags = (int)parse_flags(argv[1]);
        if (argc == 3)
            mode = parse_mode(argv[2]);
        errno = ERRNO_SENTINEL;
        if (strcmp(op, "open") == 0) {
            fd = call_open(argv[0], flags, mode);
        } else if (strcmp(op, "sys_open") == 0) {
#ifdef SYS_open
            fd = (int)syscall(SYS_open, argv[0], flags, mode);
#else
            fd = (int)syscall(SYS_openat, AT_FDCWD, argv[0], flags, mode);
#endif
        } else if (strcmp(op, "sys_openat") == 0) {
            fd = (int)syscall(SYS_openat, AT_FDCWD, argv[0], flags, mode);
        } else {
            struct open_how how;

            memset(&how, 0, sizeof how);
            how.flags = (unsigned long long)(unsigned int)flags;
            how.mode = needs_mode(flags) ? mode : 0;
            fd = (int)syscall(SYS_openat2, AT_FDCWD, argv[0], &how, sizeof how);
        }
        e = errno;
        report_fd(fd, e, op);
    } else if (strcmp(op, "openat") == 0) {
        int flags, dirfd, fd;
        mode_t mode = 0644;

        if (argc < 3 || argc > 4)
            usage();
        flags = (int)parse_flags(argv[2]);
        if (argc == 4)
            mode = parse_mode(argv[3]);
        dirfd = open(argv[0], O_RDONLY | O_DIRECTORY);
        if (dirfd < 0) {
            fprintf(stderr, "%s: cannot open directory '%s': %s\n", prog, argv[0], strerror(errno));
            exit(2);
        }
        errno = ERRNO_SENTINEL;
        fd = call_openat(dirfd, argv[1], flags, mode);
        e = errno;
        close(dirfd);
        report_fd(fd, e, op);
    } else if (strcmp(op, "creat") == 0) {
        int fd;
        mode_t mode = 0644;

        if (argc < 1 || argc > 2)
            usage();
        if (argc == 2)
            mode = parse_mode(argv[1]);
        errno = ERRNO_SENTINEL;
        fd = creat(argv[0], mode);
        e = errno;
        report_fd(fd, e, op);
    } else if (strcmp(op, "fopen") == 0) {
        FILE *f;

        if (argc != 2)
            usage();
        errno = ERRNO_SENTINEL;
        f = fopen(argv[0], argv[1]);
        e = errno;
        if (!f)
            fail_with(e);
        check_errno(e, op);
        printf("ok %d\n", fileno(f));
        fclose(f);
    } else if (strcmp(op, "freopen") == 0) {
        FILE *base, *f;

        if (argc != 2)
            usage();
        base = fopen("/dev/null", "r");
        if (!base) {
            perror("fopen /dev/null");
            exit(2);
        }
        errno = ERRNO_SENTINEL;
        f = freopen(argv[0], argv[1], base);
        e = errno;
        if (!f)
            fail_with(e);
        check_errno(e, op);
        printf("ok %d\n", fileno(f));
        fclose(f);
    } else if (strcmp(op, "rename") == 0 || strcmp(op, "renameat") == 0 ||
               strcmp(op, "sys_rename") == 0) {
        long rc;

        if (argc != 2)
            usage();
        errno = ERRNO_SENTINEL;
        if (strcmp(op, "rename") == 0)
            rc = rename(argv[0], argv[1]);
        else if (strcmp(op, "renameat") == 0)
            rc = renameat(AT_FDCWD, argv[0], AT_FDCWD, argv[1]);
        else
#ifdef SYS_rename
            rc = syscall(SYS_rename, argv[0], argv[1]);
#else
            rc = syscall(SYS_renameat2, AT_FDCWD, argv[0], AT_FDCWD, argv[1], 0);
#endif
        e = errno;
        report_rc(rc, e, op);
    } else if (strcmp(op, "renameat2") == 0 || strcmp(op, "sys_renameat2") == 0) {
        unsigned int flags;
        long rc;

        if (argc != 3)
            usage();
        flags = (unsigned int)parse_flags(argv[2]);
        errno = ERRNO_SENTINEL;
        if (strcmp(op, "renameat2") == 0)
            rc = renameat2(AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags);
        else
            rc = syscall(SYS_renameat2, AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags);
        e = errno;
        report_rc(rc, e, op);
    } else if (strcmp(op, "truncate") == 0 || strcmp(op, "sys_truncate") == 0) {
        long long len;
        long rc;

        if (argc != 2)
            usage();
        len = parse_len(argv[1]);
        errno = ERRNO_SENTINEL;
        if (strcmp(op, "truncate") == 0)
            rc = truncate(argv[0], (off_t)len);
        else
            rc = syscall(SYS_truncate, argv[0], len);
        e = errno;
        report_rc(rc, e, op);
    } else if (strcmp(op, "read") == 0) {
        char buf[65536];
        ssize_t n;
        int fd;

        if (argc != 1)
            usage();
        errno = ERRNO_SENTINEL;
        fd = open(argv[0], O_RDONLY);
        e = errno;
        if (fd < 0)
            fail_with(e);
        check_errno(e, "open");
        do {
            errno = ERRNO_SENTINEL;
            n = read(fd, buf, sizeof buf);
            e = errno;
            if (n < 0)
                fail_with(e);
            check_errno(e, "read");
        } while (n > 0);
        errno = ERRNO_SENTINEL;
        if (close(fd) < 0)
            fail_with(errno);
        check_errno(errno, "close");
        printf("ok\n");
    } else if (strcmp(op, "write") == 0 || strcmp(op, "append") == 0 ||
               strcmp(op, "sys_close_write") == 0) {
        size_t len, off = 0;
        int fd, flags;

        if (argc != 2)
            usage();
        flags = strcmp(op, "append") != 0 ? O_WRONLY | O_TRUNC | O_CREAT : O_WRONLY | O_APPEND;
        errno = ERRNO_SENTINEL;
        fd = call_open(argv[0], flags, 0644);
        e = errno;
        if (fd < 0)
            fail_with(e);
        check_errno(e, "open");
        len = strlen(argv[1]);
        while (off < len) {
            ssize_t n;

            errno = ERRNO_SENTINEL;
            n = write(fd, argv[1] + off, len - off);
            e = errno;
            if (n < 0)
                fail_with(e);
            check_errno(e, "write");
            off += (size_t)n;
        }
        errno = ERRNO_SENTINEL;
        if ((strcmp(op, "sys_close_write") == 0 ? (int)syscall(SYS_close, fd) : close(fd)) < 0)
            fail_with(errno);
        check_errno(errno, "close");
        printf("ok\n");
    } else if (strcmp(op, "opath") == 0) {
        int fd;

        if (argc != 1)
            usage();
        errno = ERRNO_SENTINEL;
        fd = open(argv[0], O_PATH);
        e = errno;
        report_fd(fd, e, op);
    } else {
        usage();
    }
    fflush(stdout);
    return 0;
}
