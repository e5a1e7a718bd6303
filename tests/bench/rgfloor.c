/* The floor of a macro row, measured: a preloaded library with no readguard
 * in it that makes, around the calls the shim hooks, only the system calls
 * readguard cannot do without, so that scripts/dev/bench.sh times it in the
 * same rounds as the command bare and guarded (as rgbench's write_floor
 * does for one call). It judges nothing and keeps no table.
 *
 *   RG_FLOOR_JOURNAL=DIR  before each unlink of a file with one name, what
 *       the journal's link costs the kernel (guard/journal/link.c, guard/journal/index.c):
 *       an O_PATH open of it and its fstat, linkat by the descriptor into
 *       DIR/objects (DIR on the file's filesystem, as the journal must be),
 *       one record of the journal's fields appended to
 *       DIR/sessions/floor.jsonl (open, write, close), and the descriptor's
 *       close; the link is dropped if the unlink fails. Given a DIR as deep
 *       as the session's journal, the kernel walks paths as long as the
 *       journal's (scripts/dev/bench.sh).
 *   RG_FLOOR_JMAP=1       with RG_FLOOR_JOURNAL: the record is stored in a
 *       shared mapping of the index instead (a design measured, not built:
 *       scripts/dev/bench-notes.md), which a process opens, maps and
 *       closes once, and grows by fallocate a MiB at a time.
 *   RG_FLOOR_READ=1       after each successful read-mode open of a file:
 *       one fstat, what recording a read needs (row 1a).
 *   RG_FLOOR_ROOT=DIR     with RG_FLOOR_READ: no fstat after the open of an
 *       absolute path outside DIR, whose read the shim does not record
 *       (row 2; npm's own modules). A relative path counts as inside.
 *   RG_FLOOR_SHIM=1       the other system calls the shim makes around
 *       these: the unlink's signal mask pair (guard/critical.c; an allowed
 *       write-open is judged and counted lock-free, guard/wopen.c, and so
 *       is the restamp at its close: only a write the shim may refuse or
 *       the journal keeps is judged inside a mask, and a floor has none),
 *       the fstat of descriptors 0-2 before a link, and F_GETFL of one
 *       that is the file (os/procfd.c: a file the remover writes there is
 *       copied, not linked), and the getcwd
 *       and getpid of the journal's record; after a
 *       write-mode open fstat and getpid, and before the close of that
 *       descriptor getpid and fstat (row 3b), also when the close is
 *       syscall(SYS_close), as libuv (node) makes it;
 *       without RG_FLOOR_JOURNAL, before each unlink of a file the look
 *       that tells whether the journal must keep it: an O_PATH open, its
 *       fstat and close (the session's own files, as npm's temporary ones,
 *       need nothing kept), inside the mask pair.
 *   RG_FLOOR_RENAME=1     what the shim adds to a rename onto a free name
 *       (tests/bench/rgfloor_rename.c).
 *
 * Unset, each hook is the raw system call and nothing else. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rawsys.h"
#include "rgfloor.h"

#define EXPORT __attribute__((visibility("default")))

/* libc's syscall(), for the library's own raw calls: the exported
 * syscall() below would take them back (a preloaded library's calls of
 * its own exported names bind to them). */
typedef long (*syscall_fn)(long, ...);
static syscall_fn libc_syscall(void)
{
    static syscall_fn next;
    syscall_fn f = __atomic_load_n(&next, __ATOMIC_RELAXED);
    if (!f) {
        f = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
        __atomic_store_n(&next, f, __ATOMIC_RELAXED);
    }
    return f;
}
#define sys (libc_syscall())

static char objects[PATH_MAX], index_path[PATH_MAX];
static bool journal, reads, shim, jmap;
static const char *root;
static size_t root_len;
/* What a write hook's critical section blocks: all but the synchronous
 * signals, as shim/guard/critical.c does. */
static sigset_t hook_set;
/* The descriptors opened for writing, whose close the shim restamps. */
#define MAX_FD 65536
static unsigned char written[MAX_FD / 8];

__attribute__((constructor)) static void floor_init(void)
{
    const char *j = getenv("RG_FLOOR_JOURNAL"), *r = getenv("RG_FLOOR_READ");
    journal = j && *j && snprintf(objects, sizeof objects, "%s/objects", j) < (int)sizeof objects &&
              snprintf(index_path, sizeof index_path, "%s/sessions/floor.jsonl", j) <
                  (int)sizeof index_path;
    reads = r && *r == '1';
    root = getenv("RG_FLOOR_ROOT");
    if (root && *root) {
        root_len = strlen(root);
        while (root_len > 1 && root[root_len - 1] == '/')
            root_len--;
    }
    const char *h = getenv("RG_FLOOR_SHIM");
    shim = h && *h == '1';
    const char *jm = getenv("RG_FLOOR_JMAP");
    jmap = jm && *jm == '1';
    static const int sync_signals[] = {SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGSYS};
    sigfillset(&hook_set);
    for (size_t i = 0; i < sizeof sync_signals / sizeof *sync_signals; i++)
        sigdelset(&hook_set, sync_signals[i]);
}

void rg_floor_block(sigset_t *old) { sigprocmask(SIG_BLOCK, &hook_set, old); }

void rg_floor_restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

static void mask(sigset_t *old)
{
    if (shim)
        rg_floor_block(old);
}

static void unmask(const sigset_t *old)
{
    if (shim)
        rg_floor_restore(old);
}

/* The record a kept version gets: the journal's fields (core/jrecord.c),
 * so that the write is as long as the journal's. */
static void append(const char *path, const struct stat *st, const char *object, long pid)
{
    char line[2 * PATH_MAX + 768];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const char *name = strrchr(object, '/');
    int n = snprintf(
        line, sizeof line,
        "{\"time\":\"2026-01-01T00:00:00.000000000Z\",\"time_ns\":%lld,\"pid\":%ld,"
        "\"prog\":\"%s\",\"op\":\"unlink\",\"call\":\"unlink\",\"path\":\"%s\",\"dev\":%lu,"
        "\"ino\":%lu,\"mode\":%u,\"uid\":%u,\"gid\":%u,\"mtime_ns\":%lld,\"atime_ns\":%lld,"
        "\"size\":%ld,\"exists\":true,\"object\":\"%s\",\"unsaved\":null}\n",
        (long long)now.tv_sec * 1000000000 + now.tv_nsec, pid, program_invocation_short_name, path,
        (unsigned long)st->st_dev, (unsigned long)st->st_ino, st->st_mode, st->st_uid, st->st_gid,
        (long long)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec,
        (long long)st->st_atim.tv_sec * 1000000000 + st->st_atim.tv_nsec, (long)st->st_size,
        name ? name + 1 : object);
    if (n <= 0 || (size_t)n >= sizeof line)
        return;
    if (jmap) {
        rg_floor_jmap_append(index_path, line, (size_t)n);
        return;
    }
    int fd =
        (int)sys(SYS_openat, AT_FDCWD, index_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    (void)sys(SYS_write, fd, line, (size_t)n);
    sys(SYS_close, fd);
}

/* As the journal links: by the descriptor itself (Linux 6.10 and later),
 * else through /proc. */
static long link_fd(int fd, const char *to)
{
    long r = sys(SYS_linkat, fd, "", AT_FDCWD, to, AT_EMPTY_PATH);
    if (r == 0 || errno != ENOENT)
        return r;
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return sys(SYS_linkat, AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW);
}

/* Gives the file a second name in objects/; returns true if it did (and
 * to holds that name). */
static bool keep(int dirfd, const char *path, char *to, size_t cap)
{
    int fd = (int)sys(SYS_openat, dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    struct stat st;
    bool linked = false;
    if (fd < 0)
        return false;
    if (sys(SYS_fstat, fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1) {
        int n = snprintf(to, cap, "%s/ino-%lu-%lu-%ld", objects, (unsigned long)st.st_dev,
                         (unsigned long)st.st_ino,
                         (long)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec);
        char cwd[PATH_MAX] = "";
        struct stat std;
        /* As rg_std_writes: the access mode only of one that is the file. */
        for (int i = 0; shim && i <= 2; i++)
            if (sys(SYS_fstat, i, &std) == 0 && std.st_ino == st.st_ino &&
                std.st_dev == st.st_dev && S_ISREG(std.st_mode))
                sys(SYS_fcntl, i, F_GETFL);
        if (shim)
            sys(SYS_getcwd, cwd, sizeof cwd);
        linked = n > 0 && (size_t)n < cap && link_fd(fd, to) == 0;
        long pid = linked && shim ? sys(SYS_getpid) : 0;
        /* The record names the file by its absolute path, as the journal's
         * does from getcwd's answer. */
        char abs[2 * PATH_MAX];
        if (linked && shim && path[0] != '/' &&
            snprintf(abs, sizeof abs, "%s/%s", cwd, path) < (int)sizeof abs)
            path = abs;
        if (linked)
            append(path, &st, to, pid);
    }
    sys(SYS_close, fd);
    return linked;
}

/* What the journal's judgement of an unlink costs when it keeps nothing. */
static void look(int dirfd, const char *path)
{
    int fd = (int)sys(SYS_openat, dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    struct stat st;
    if (fd < 0)
        return;
    sys(SYS_fstat, fd, &st);
    sys(SYS_close, fd);
}

static int floor_unlink(int dirfd, const char *path, int flags)
{
    int saved = errno;
    char to[PATH_MAX + 64];
    sigset_t old;
    bool dir = flags & AT_REMOVEDIR;
    if ((journal || shim) && !dir)
        mask(&old);
    if (!journal && shim && !dir)
        look(dirfd, path);
    bool linked = journal && !dir && keep(dirfd, path, to, sizeof to);
    errno = saved;
    long r = sys(SYS_unlinkat, dirfd, path, flags);
    saved = errno;
    if (r != 0 && linked)
        sys(SYS_unlinkat, AT_FDCWD, to, 0);
    if ((journal || shim) && !dir)
        unmask(&old);
    errno = saved;
    return (int)r;
}

EXPORT int unlink(const char *path) { return floor_unlink(AT_FDCWD, path, 0); }

EXPORT int unlinkat(int dirfd, const char *path, int flags)
{
    return floor_unlink(dirfd, path, flags);
}

EXPORT int remove(const char *path)
{
    int saved = errno, r = floor_unlink(AT_FDCWD, path, 0);
    if (r == 0 || errno != EISDIR)
        return r;
    errno = saved;
    return (int)sys(SYS_unlinkat, AT_FDCWD, path, AT_REMOVEDIR);
}

/* Would the shim record a read of path? Lexically, as its root test. */
static bool recorded(const char *path)
{
    return !root_len || path[0] != '/' ||
           (strncmp(path, root, root_len) == 0 && (path[root_len] == '/' || !path[root_len]));
}

/* The open and the calls after it in line, as the shim makes them
 * (rawsys.h): through libc's syscall() each paid a return of its own. */
static int floor_open(int dirfd, const char *path, int flags, mode_t mode)
{
    int fd = (int)raw_sys4(SYS_openat, dirfd, (long)path, flags | O_LARGEFILE, mode);
    if (fd < 0) {
        errno = -fd;
        return -1;
    }
    if (flags & (O_DIRECTORY | O_PATH))
        return fd;
    struct stat st;
    if ((flags & O_ACCMODE) == O_RDONLY) {
        if (reads && recorded(path))
            raw_sys2(SYS_fstat, fd, (long)&st);
    } else if (shim && fd < MAX_FD) {
        raw_sys2(SYS_fstat, fd, (long)&st);
        raw_sys0(SYS_getpid);
        __atomic_fetch_or(&written[fd / 8], (unsigned char)(1u << fd % 8), __ATOMIC_RELAXED);
    }
    return fd;
}

/* The mode argument is there only when the flags create a file. */
#define MODE_ARG(flags, mode)                    \
    do {                                         \
        if ((flags) & (O_CREAT | __O_TMPFILE)) { \
            va_list ap;                          \
            va_start(ap, flags);                 \
            (mode) = (mode_t)va_arg(ap, int);    \
            va_end(ap);                          \
        }                                        \
    } while (0)

EXPORT int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return floor_open(AT_FDCWD, path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return floor_open(AT_FDCWD, path, flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return floor_open(dirfd, path, flags, mode);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return floor_open(dirfd, path, flags, mode);
}

EXPORT int close(int fd)
{
    if (shim && fd >= 0 && fd < MAX_FD &&
        __atomic_fetch_and(&written[fd / 8], (unsigned char)~(1u << fd % 8), __ATOMIC_RELAXED) &
            (1u << fd % 8)) {
        struct stat st;
        raw_sys0(SYS_getpid);
        raw_sys2(SYS_fstat, fd, (long)&st);
    }
    long r = raw_sys4(SYS_close, fd, 0, 0, 0);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    return 0;
}

/* _FORTIFY_SOURCE's opens (git's reads), which take no mode. */
EXPORT int __open_2(const char *path, int flags) { return floor_open(AT_FDCWD, path, flags, 0); }

EXPORT int __open64_2(const char *path, int flags) { return floor_open(AT_FDCWD, path, flags, 0); }

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
    return floor_open(dirfd, path, flags, 0);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
    return floor_open(dirfd, path, flags, 0);
}

/* libuv (node) ends its descriptors with syscall(SYS_close), which the shim
 * restamps as a close; every other number goes to the kernel as it came.
 * As glibc's syscall(), six arguments are read whatever the call takes. */
EXPORT long syscall(long nr, ...)
{
    va_list ap;
    long a[6];
    va_start(ap, nr);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (nr == SYS_close)
        return close((int)a[0]);
    return sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
