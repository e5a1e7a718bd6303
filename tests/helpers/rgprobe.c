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
 *   rgprobe by_handle PATH FLAGS           open_by_handle_at of name_to_handle_at(PATH)'s
 *                                          handle (as root: CAP_DAC_READ_SEARCH)
 *   rgprobe sys_by_handle PATH FLAGS       the same by syscall(SYS_open_by_handle_at, ...)
 *   rgprobe nocancel PATH FLAGS [MODE]     glibc's __open_nocancel, found by dlsym
 *   rgprobe io_fopen PATH MODE             glibc's _IO_fopen (libio's fopen), found by dlsym
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
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
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

static void usage(void);

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

static void report_stream(FILE *f, int e, const char *what)
{
    if (!f)
        fail_with(e);
    check_errno(e, what);
    printf("ok %d\n", fileno(f));
    fclose(f);
}

/* Each op is one function: argc and argv are its own arguments, after OP. */

static int print(const char *op, int argc, char **argv)
{
    (void)op;
    if (argc != 1)
        usage();
    fputs(argv[0], stdout);
    return 0;
}

static int print_err(const char *op, int argc, char **argv)
{
    static char buf[BUFSIZ];
    (void)op;
    if (argc != 1 || setvbuf(stderr, buf, _IOFBF, sizeof buf) != 0)
        usage();
    fputs(argv[0], stderr);
    return 0;
}

/* As coreutils' close_stdout lets go of 1 and then 2 (print_close_both):
 * two let-gos of a process that made no hooked call before. */
static int print_close(const char *op, int argc, char **argv)
{
    static char buf[BUFSIZ];
    if (argc != 1 || setvbuf(stderr, buf, _IOFBF, sizeof buf) != 0)
        usage();
    fputs(argv[0], stdout);
    fputs(argv[0], stderr);
    if (fclose(stdout) != 0)
        return 1;
    return strcmp(op, "print_close_both") == 0 && fclose(stderr) != 0;
}

static int print_fd1(const char *op, int argc, char **argv)
{
    FILE *out = argc == 1 ? fdopen(1, "w") : NULL;
    (void)op;
    if (!out)
        usage();
    fputs(argv[0], out);
    return 0;
}

/* The handle is taken without a look at the file's bytes: no read. */
static int open_by_handle(const char *path, const char *op, int flags)
{
    union {
        struct file_handle h;
        char room[sizeof(struct file_handle) + MAX_HANDLE_SZ];
    } u;
    int mount_id;
    u.h.handle_bytes = MAX_HANDLE_SZ;
    if (name_to_handle_at(AT_FDCWD, path, &u.h, &mount_id, 0) != 0)
        return -1;
    errno = ERRNO_SENTINEL;
    if (strcmp(op, "sys_by_handle") == 0)
        return (int)syscall(SYS_open_by_handle_at, AT_FDCWD, &u.h, flags);
    return open_by_handle_at(AT_FDCWD, &u.h, flags);
}

static int open_by_path(const char *path, const char *op, int flags, mode_t mode)
{
    if (strstr(op, "by_handle"))
        return open_by_handle(path, op, flags);
    if (strcmp(op, "nocancel") == 0) {
        int (*nocancel)(const char *, int, ...) =
            (int (*)(const char *, int, ...))dlsym(RTLD_DEFAULT, "__open_nocancel");
        return nocancel ? nocancel(path, flags, mode) : (errno = ENOSYS, -1);
    }
    if (strcmp(op, "open") == 0)
        return call_open(path, flags, mode);
    if (strcmp(op, "sys_open") == 0)
#ifdef SYS_open
        return (int)syscall(SYS_open, path, flags, mode);
#else
        return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
#endif
    if (strcmp(op, "sys_openat") == 0)
        return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(unsigned int)flags;
    how.mode = needs_mode(flags) ? mode : 0;
    return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
}

static int open_op(const char *op, int argc, char **argv)
{
    if (argc < 2 || argc > 3)
        usage();
    int flags = (int)parse_flags(argv[1]);
    mode_t mode = argc == 3 ? parse_mode(argv[2]) : 0644;
    errno = ERRNO_SENTINEL;
    int fd = open_by_path(argv[0], op, flags, mode);
    report_fd(fd, errno, op);
    return 0;
}

static int openat_op(const char *op, int argc, char **argv)
{
    if (argc < 3 || argc > 4)
        usage();
    int flags = (int)parse_flags(argv[2]);
    mode_t mode = argc == 4 ? parse_mode(argv[3]) : 0644;
    int dirfd = open(argv[0], O_RDONLY | O_DIRECTORY);
    if (dirfd < 0) {
        fprintf(stderr, "%s: cannot open directory '%s': %s\n", prog, argv[0], strerror(errno));
        exit(2);
    }
    errno = ERRNO_SENTINEL;
    int fd = call_openat(dirfd, argv[1], flags, mode);
    int e = errno;
    close(dirfd);
    report_fd(fd, e, op);
    return 0;
}

static int creat_op(const char *op, int argc, char **argv)
{
    if (argc < 1 || argc > 2)
        usage();
    mode_t mode = argc == 2 ? parse_mode(argv[1]) : 0644;
    errno = ERRNO_SENTINEL;
    int fd = creat(argv[0], mode);
    report_fd(fd, errno, op);
    return 0;
}

static int fopen_op(const char *op, int argc, char **argv)
{
    if (argc != 2)
        usage();
    FILE *(*open_stream)(const char *, const char *) = fopen;
    if (strcmp(op, "io_fopen") == 0)
        open_stream = (FILE * (*)(const char *, const char *)) dlsym(RTLD_DEFAULT, "_IO_fopen");
    errno = open_stream ? ERRNO_SENTINEL : ENOSYS;
    FILE *f = open_stream ? open_stream(argv[0], argv[1]) : NULL;
    report_stream(f, errno, op);
    return 0;
}

static int freopen_op(const char *op, int argc, char **argv)
{
    if (argc != 2)
        usage();
    FILE *base = fopen("/dev/null", "r");
    if (!base) {
        perror("fopen /dev/null");
        exit(2);
    }
    errno = ERRNO_SENTINEL;
    FILE *f = freopen(argv[0], argv[1], base);
    report_stream(f, errno, op);
    return 0;
}

static int rename_op(const char *op, int argc, char **argv)
{
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
    report_rc(rc, errno, op);
    return 0;
}

static int renameat2_op(const char *op, int argc, char **argv)
{
    long rc;
    if (argc != 3)
        usage();
    unsigned int flags = (unsigned int)parse_flags(argv[2]);
    errno = ERRNO_SENTINEL;
    if (strcmp(op, "renameat2") == 0)
        rc = renameat2(AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags);
    else
        rc = syscall(SYS_renameat2, AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags);
    report_rc(rc, errno, op);
    return 0;
}

static int truncate_op(const char *op, int argc, char **argv)
{
    long rc;
    if (argc != 2)
        usage();
    long long len = parse_len(argv[1]);
    errno = ERRNO_SENTINEL;
    if (strcmp(op, "truncate") == 0)
        rc = truncate(argv[0], (off_t)len);
    else
        rc = syscall(SYS_truncate, argv[0], len);
    report_rc(rc, errno, op);
    return 0;
}

/* close(fd), or the system call libuv makes for it, reported. */
static void close_checked(int fd, bool by_syscall)
{
    errno = ERRNO_SENTINEL;
    if ((by_syscall ? (int)syscall(SYS_close, fd) : close(fd)) < 0)
        fail_with(errno);
    check_errno(errno, "close");
}

static int read_op(const char *op, int argc, char **argv)
{
    char buf[65536];
    ssize_t n;
    (void)op;
    if (argc != 1)
        usage();
    errno = ERRNO_SENTINEL;
    int fd = open(argv[0], O_RDONLY);
    if (fd < 0)
        fail_with(errno);
    check_errno(errno, "open");
    do {
        errno = ERRNO_SENTINEL;
        n = read(fd, buf, sizeof buf);
        if (n < 0)
            fail_with(errno);
        check_errno(errno, "read");
    } while (n > 0);
    close_checked(fd, false);
    printf("ok\n");
    return 0;
}

static int write_op(const char *op, int argc, char **argv)
{
    if (argc != 2)
        usage();
    int flags = strcmp(op, "append") != 0 ? O_WRONLY | O_TRUNC | O_CREAT : O_WRONLY | O_APPEND;
    errno = ERRNO_SENTINEL;
    int fd = call_open(argv[0], flags, 0644);
    if (fd < 0)
        fail_with(errno);
    check_errno(errno, "open");
    size_t len = strlen(argv[1]), off = 0;
    while (off < len) {
        errno = ERRNO_SENTINEL;
        ssize_t n = write(fd, argv[1] + off, len - off);
        if (n < 0)
            fail_with(errno);
        check_errno(errno, "write");
        off += (size_t)n;
    }
    close_checked(fd, strcmp(op, "sys_close_write") == 0);
    printf("ok\n");
    return 0;
}

static int opath_op(const char *op, int argc, char **argv)
{
    if (argc != 1)
        usage();
    errno = ERRNO_SENTINEL;
    int fd = open(argv[0], O_PATH);
    report_fd(fd, errno, op);
    return 0;
}

/* Every op, once: main's dispatch and usage's list. The print ops leave
 * their output in stdio for exit to write, as the tests of a restamp at
 * exit want it; the others flush it once they have reported. */
static const struct probe {
    const char *name, *args;
    int (*run)(const char *op, int argc, char **argv);
    bool exit_flushes;
} probes[] = {
    {"open", "PATH FLAGS [MODE]", open_op, false},
    {"openat", "DIR PATH FLAGS [MODE]", openat_op, false},
    {"creat", "PATH [MODE]", creat_op, false},
    {"fopen", "PATH MODE", fopen_op, false},
    {"io_fopen", "PATH MODE", fopen_op, false},
    {"freopen", "PATH MODE", freopen_op, false},
    {"rename", "OLD NEW", rename_op, false},
    {"renameat", "OLD NEW", rename_op, false},
    {"renameat2", "OLD NEW FLAGS", renameat2_op, false},
    {"truncate", "PATH LEN", truncate_op, false},
    {"sys_open", "PATH FLAGS [MODE]", open_op, false},
    {"sys_openat", "PATH FLAGS [MODE]", open_op, false},
    {"sys_openat2", "PATH FLAGS [MODE]", open_op, false},
    {"by_handle", "PATH FLAGS", open_op, false},
    {"sys_by_handle", "PATH FLAGS", open_op, false},
    {"nocancel", "PATH FLAGS [MODE]", open_op, false},
    {"sys_rename", "OLD NEW", rename_op, false},
    {"sys_renameat2", "OLD NEW FLAGS", renameat2_op, false},
    {"sys_truncate", "PATH LEN", truncate_op, false},
    {"read", "PATH", read_op, false},
    {"write", "PATH TEXT", write_op, false},
    {"append", "PATH TEXT", write_op, false},
    {"sys_close_write", "PATH TEXT", write_op, false},
    {"opath", "PATH", opath_op, false},
    {"print", "TEXT", print, true},
    {"print_err", "TEXT", print_err, true},
    {"print_fd1", "TEXT", print_fd1, true},
    {"print_close_both", "TEXT", print_close, true},
    {"print_close_out", "TEXT", print_close, true},
};

static void usage(void)
{
    fprintf(stderr, "usage: %s OP ARGS...\nops:", prog);
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++)
        fprintf(stderr, "%s %s %s", i ? " |" : "", probes[i].name, probes[i].args);
    fputc('\n', stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++)
        if (strcmp(argv[1], probes[i].name) == 0) {
            int rc = probes[i].run(probes[i].name, argc - 2, argv + 2);
            if (!probes[i].exit_flushes)
                fflush(stdout);
            return rc;
        }
    usage();
}
