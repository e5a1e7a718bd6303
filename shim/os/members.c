#include "os/members.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/procmaps.h"
#include "core/settings.h"
#include "os/clock.h"
#include "os/sys.h"
/* Small enough for any thread's stack; a file is read in as many as it takes. */
#define CHUNK 4096

/* The most an exec lays out as arguments and environment (fs/exec.c: 3/4
 * of _STK_LIM). What /proc shows as an environment is a range of memory the
 * process itself may set (prctl PR_SET_MM_MAP), terabytes of zeros, read at
 * each look for minutes: no exec hands on more than this. */
#define ENVIRON_MAX (6 << 20)

/* Did pid start with READGUARD_SESSION=path? 1 or 0; -1 when its
 * environment reads empty. It is read as the kernel keeps it,
 * NUL-separated, a chunk at a time: an entry may straddle two chunks. */
static int environ_names(int pid, const char *path)
{
    char file[64], buf[CHUNK], want[PATH_MAX + 32];
    snprintf(file, sizeof file, "/proc/%d/environ", pid);
    int n = snprintf(want, sizeof want, "%s=%s", RG_ENV_SESSION, path);
    int fd = rg_sys_openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0 || n <= 0 || (size_t)n >= sizeof want) {
        if (fd >= 0)
            rg_sys_close(fd);
        return 0;
    }
    size_t len = (size_t)n, at = 0; /* how much of want this entry matched */
    bool match = true, found = false, empty = true;
    ssize_t got;
    for (size_t total = 0; !found && total < ENVIRON_MAX; total += (size_t)got) {
        if ((got = read(fd, buf, sizeof buf)) <= 0)
            break;
        empty = false;
        for (ssize_t i = 0; i < got && !found; i++) {
            if (buf[i] == '\0') {
                found = match && at == len;
                match = true, at = 0;
            } else if (match && at < len && buf[i] == want[at]) {
                at++;
            } else {
                match = false;
            }
        }
    }
    rg_sys_close(fd);
    return found ? 1 : empty ? -1 : 0;
}

/* Does pid map (dev, ino)? Lines are cut at 255 bytes: the device and
 * inode come well before, and only a path can be longer. */
static bool maps_file(int pid, uint64_t dev, uint64_t ino)
{
    char file[64], buf[CHUNK], line[256];
    snprintf(file, sizeof file, "/proc/%d/maps", pid);
    int fd = rg_sys_openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return false;
    size_t len = 0;
    bool found = false;
    ssize_t got;
    while (!found && (got = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < got && !found; i++) {
            if (buf[i] != '\n') {
                if (len < sizeof line - 1)
                    line[len++] = buf[i];
                continue;
            }
            line[len] = '\0';
            struct rg_mapping m;
            found = rg_maps_line(line, &m) && m.dev == dev && m.ino == ino;
            len = 0;
        }
    rg_sys_close(fd);
    return found;
}

/* pid's stat read into buf (cap bytes), and where its field n (from 3,
 * the state) begins; NULL when it cannot be read. Fields are counted
 * from the name's closing parenthesis: the name may hold spaces. */
static const char *stat_field(int pid, int n, char *buf, size_t cap)
{
    char file[64];
    snprintf(file, sizeof file, "/proc/%d/stat", pid);
    int fd = rg_sys_openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return NULL;
    ssize_t got = read(fd, buf, cap - 1);
    rg_sys_close(fd);
    buf[got > 0 ? got : 0] = '\0';
    char *p = strrchr(buf, ')');
    for (int field = 2; p && field < n; field++)
        p = strchr(p + 1, ' ');
    return p ? p + 1 : NULL;
}

/* When pid started, in clock ticks after boot; -1 when it cannot be told. */
static long long started(int pid)
{
    char buf[1024];
    const char *p = stat_field(pid, 22, buf, sizeof buf);
    return p ? strtoll(p, NULL, 10) : -1;
}

/* Is pid inside an execve, between taking its new memory and laying out
 * its arguments and environment there? Its command line then reads
 * empty, as otherwise only a zombie's, a kernel thread's or an exiting
 * process's does (core/procmaps.h). */
static bool execing(int pid)
{
    char file[64], buf[1024];
    snprintf(file, sizeof file, "/proc/%d/cmdline", pid);
    int fd = rg_sys_openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return false;
    ssize_t got = read(fd, buf, 1);
    rg_sys_close(fd);
    return got == 0 && stat_field(pid, 3, buf, sizeof buf) && rg_stat_may_exec(buf);
}

static int pid_of(const char *name)
{
    int pid = 0;
    for (; *name; name++) {
        if (*name < '0' || *name > '9' || pid > 99999999)
            return 0;
        pid = pid * 10 + (*name - '0');
    }
    return pid;
}

/* Can pid be a member, as far as its age tells? One that started before
 * born (-1: unknown) cannot; one whose age cannot be read may. */
static bool young_enough(int pid, long long born)
{
    long long at = born < 0 ? -1 : started(pid);
    return at < 0 || at >= born;
}

/* Does is(dfd, pid, arg) hold for a process in /proc (open at dfd)? 1 or
 * 0; -1 when /proc cannot be read through. */
static int any_process(bool (*is)(int dfd, int pid, const void *arg), const void *arg)
{
    char buf[CHUNK];
    int dfd = rg_sys_openat(AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0)
        return -1;
    bool found = false;
    long n;
    while (!found && (n = rg_syscall6(SYS_getdents64, dfd, (long)buf, sizeof buf, 0, 0, 0)) > 0)
        for (long off = 0; off < n && !found;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            int pid = pid_of(d->d_name);
            found = pid > 0 && is(dfd, pid, arg);
            off += d->d_reclen;
        }
    rg_sys_close(dfd);
    return found ? 1 : n == 0 ? 0 : -1;
}

struct member_look {
    const char *path;
    uint64_t dev, ino;
    int self;
    long long born;
    struct rg_exec_wait *wait;
};

/* How long, at most, processes in the middle of an exec are waited for,
 * all the looks that share one budget together. Loading a program takes
 * milliseconds; one that takes longer is counted a member: a table kept is
 * pruned later, one removed under a member refuses all it writes from then
 * on. Any process of the user can make its command line read empty for
 * good (prctl PR_SET_MM_MAP): waited for anew at each look, it would cost
 * a prune a second per table, and a tree that left many tables the start
 * of every session. Once the budget is spent, one seen mid-exec is a
 * member at once: its table kept, and pruned later. */
#define EXEC_WAIT_NS 1000000000LL

/* Adds the time since *since (0: none yet) to what w has spent, sets
 * *since to now, and tells whether w is spent. By the clock: a count of
 * 1 ms naps took many seconds where each woke late (a loaded machine, or
 * a timer slack the process inherited: 21 s for 20 ms). */
static bool exec_wait_spent(struct rg_exec_wait *w, int64_t *since)
{
    int64_t now = rg_clock_ns(CLOCK_MONOTONIC);
    if (*since)
        w->spent_ns += now - *since;
    *since = now;
    return w->spent_ns >= EXEC_WAIT_NS;
}

/* A member maps the table, or an exec handed it READGUARD_SESSION. The
 * map is looked at first: a child forked but not yet exec'd has the table
 * only there, and a look that comes too late for that finds the exec
 * begun, its new environment to read, or not laid out yet: waited for. */
static bool is_member(int dfd, int pid, const void *arg)
{
    (void)dfd;
    const struct member_look *m = arg;
    if (pid == m->self || !young_enough(pid, m->born))
        return false;
    for (int64_t since = 0;;) {
        if (maps_file(pid, m->dev, m->ino))
            return true;
        int env = environ_names(pid, m->path);
        if (env >= 0)
            return env;
        if (!execing(pid)) /* it may have ended since the look above */
            return environ_names(pid, m->path) > 0;
        if (exec_wait_spent(m->wait, &since))
            return true;
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
}

bool rg_session_has_members(const char *path, uint64_t dev, uint64_t ino, bool younger,
                            struct rg_exec_wait *wait)
{
    struct member_look m = {path, dev, ino, (int)rg_sys_getpid(), -1, wait};
    if (younger)
        m.born = started(m.self);
    return any_process(is_member, &m) != 0; /* no way to look: keep the table */
}

uint64_t rg_pidns_self(void)
{
    struct stat st;
    return rg_sys_fstatat(AT_FDCWD, "/proc/self/ns/pid", &st, 0) == 0 ? (uint64_t)st.st_ino : 0;
}

/* The inode of the initial PID namespace's file (PROC_PID_INIT_INO, fixed
 * by the kernel since 3.8). */
#define PIDNS_INIT_INO 0xEFFFFFFCU

/* Is process pid in a PID namespace below this one? Its status's NSpid
 * line then holds more than one number, its pid in each. Read even where
 * its namespace cannot be: a status is anyone's to read. */
static bool nested(int dfd, int pid)
{
    char file[64], buf[CHUNK];
    snprintf(file, sizeof file, "%d/status", pid);
    int fd = rg_sys_openat(dfd, file, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return true;
    ssize_t got = read(fd, buf, sizeof buf - 1);
    rg_sys_close(fd);
    buf[got > 0 ? got : 0] = '\0';
    const char *p = strstr(buf, "\nNSpid:");
    if (!p)
        return true; /* before Linux 4.1, no such line: perhaps */
    p += strlen("\nNSpid:");
    p += strspn(p, "\t");
    p += strspn(p, "0123456789");
    return *p == '\t';
}

/* Is process pid (its /proc directory open at dfd) in namespace ns? Gone,
 * or another user's (no creator of this user's tables): no. One of this
 * user's whose namespace cannot be looked at (not dumpable): no when it
 * is in this namespace, perhaps below it. */
static bool in_pidns(int dfd, int pid, const void *arg)
{
    uint64_t ns = *(const uint64_t *)arg;
    char file[64];
    struct stat st;
    snprintf(file, sizeof file, "%d/ns/pid", pid);
    int r = rg_sys_fstatat(dfd, file, &st, 0);
    if (r == 0)
        return (uint64_t)st.st_ino == ns;
    snprintf(file, sizeof file, "%d", pid);
    return r != -ENOENT && r != -ESRCH && rg_sys_fstatat(dfd, file, &st, 0) == 0 &&
           st.st_uid == rg_sys_geteuid() && nested(dfd, pid);
}

bool rg_pidns_gone(uint64_t ns)
{
    return ns != 0 && rg_pidns_self() == PIDNS_INIT_INO && any_process(in_pidns, &ns) == 0;
}
