/*
 * rgthreads: threads, fork, vfork, _Fork and signals against the shim, for
 * the hardening tests. Every mode exits 0 when all went as the session's
 * rule says, 1 when a call failed or was let through wrongly, 2 on usage;
 * a hang is the test's timeout. DIR must hold a file "unread" that the
 * session never read (every write-open of it must fail with EACCES).
 *
 *   rgthreads fork THREADS FORKERS ITERS DIR
 *       THREADS threads read and write files in DIR while FORKERS threads
 *       fork ITERS times each; every child reads, writes a new file, is
 *       refused "unread", and exits.
 *   rgthreads vfork THREADS ITERS DIR
 *       THREADS threads read and write while the main thread vforks ITERS
 *       children that exec /bin/true.
 *   rgthreads init-race DIR
 *       right after start, two threads make their first hooked call while
 *       two others fork; each child opens and exits. One process start is
 *       one try: run it many times.
 *   rgthreads _Fork DIR
 *       a child made by _Fork() (no atfork handlers) reads, writes a new
 *       file and is refused "unread".
 *   rgthreads signals ITERS DIR
 *       SIGALRM fires every 20 us; its handler reads a file and tries to
 *       write "unread"; the main thread loops ITERS times over reads and
 *       writes. Prints "handler=N main=M".
 *   rgthreads signals-create ITERS DIR
 *       SIGALRM every 2 ms; the handler and the main thread each create a
 *       file (O_CREAT|O_EXCL), write and close it, then rewrite it (their
 *       own write: allowed; the main thread's every other time, and a
 *       second file's each time, through fopen and fclose); the main thread
 *       also tries "unread".
 *       Prints "handler=N main=M".
 *   rgthreads signals-append ITERS DIR
 *       SIGALRM every 150 us; the handler and the main thread each open
 *       DIR/shared (read once first) with O_APPEND, add a byte and close
 *       it: one file, the session's own writes, written by both.
 *       Prints "handler=N main=M".
 *   rgthreads vfork-close DIR
 *       creates DIR/vf and writes a line; a vfork child closes its copy
 *       of the descriptor and exits; then the parent writes a second line
 *       and closes it.
 *   rgthreads spin TAG DIR
 *       until killed: read DIR/s.0 .. s.9, read and rewrite r.TAG, create
 *       n.TAG.*, and (every 50th time) be refused "unread"; exits 1 at the
 *       first wrong answer.
 *       The kill -9 stress test (scripts/dev/kill-stress.sh) runs eight.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t _Fork(void);

static const char *dir;
static atomic_int failures, stop;
static atomic_long handler_runs;

static void fail(const char *what, const char *path, int err)
{
    atomic_fetch_add(&failures, 1);
    char line[512];
    int n = snprintf(line, sizeof line, "rgthreads: %s %s: %s\n", what, path, strerror(err));
    if (write(2, line, (size_t)n) < 0)
        return;
}

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

/* A read, then a write of the file read, then a new file: all allowed. */
static int read_write(const char *tag, long i)
{
    char p[4096], name[64];
    snprintf(name, sizeof name, "r.%s", tag);
    path_of(p, sizeof p, name);
    int fd = open(p, O_RDONLY | O_CREAT, 0644);
    if (fd < 0)
        return fail("read-open", p, errno), -1;
    char b[64];
    if (read(fd, b, sizeof b) < 0)
        fail("read", p, errno);
    close(fd);
    fd = open(p, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return fail("write-open after read", p, errno), -1;
    if (write(fd, tag, strlen(tag)) < 0)
        fail("write", p, errno);
    close(fd);
    /* Removed first: a new file is always allowed, but a process killed
     * while writing one leaves it unwritable until it is read again. */
    snprintf(name, sizeof name, "n.%s.%ld", tag, i % 4);
    path_of(p, sizeof p, name);
    unlink(p);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return fail("create", p, errno), -1;
    close(fd);
    return 0;
}

/* A write-open of the unread file must be refused with EACCES. */
static int refused(void)
{
    char p[4096];
    path_of(p, sizeof p, "unread");
    int fd = open(p, O_WRONLY);
    if (fd >= 0) {
        close(fd);
        fail("write-open of an unread file was let through:", p, 0);
        return -1;
    }
    if (errno != EACCES)
        return fail("write-open of an unread file", p, errno), -1;
    return 0;
}

static void *worker(void *arg)
{
    char tag[32];
    snprintf(tag, sizeof tag, "t%ld", (long)arg);
    for (long i = 0; !atomic_load(&stop); i++)
        if (read_write(tag, i) < 0 || refused() < 0)
            break;
    return NULL;
}

static int child_work(void)
{
    char tag[32];
    snprintf(tag, sizeof tag, "c%d", (int)getpid());
    int bad = read_write(tag, 0) < 0 || refused() < 0;
    char p[4096], name[64];
    snprintf(name, sizeof name, "r.%s", tag);
    path_of(p, sizeof p, name);
    unlink(p);
    snprintf(name, sizeof name, "n.%s.0", tag);
    path_of(p, sizeof p, name);
    unlink(p);
    return bad;
}

static void reap(pid_t pid, const char *what)
{
    int st;
    if (pid < 0) {
        fail(what, "", errno);
        return;
    }
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail(what, "child failed", 0);
}

static long iters, interval_us = 100;

static void *forker(void *arg)
{
    (void)arg;
    for (long i = 0; i < iters; i++) {
        pid_t pid = fork();
        if (pid == 0)
            _exit(child_work());
        reap(pid, "fork");
    }
    return NULL;
}

static void start(pthread_t *t, int n, void *(*fn)(void *))
{
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], NULL, fn, (void *)i);
}

static void join(pthread_t *t, int n)
{
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

static int mode_fork(int nthreads, int nforkers)
{
    pthread_t w[64], f[64];
    start(w, nthreads, worker);
    start(f, nforkers, forker);
    join(f, nforkers);
    atomic_store(&stop, 1);
    join(w, nthreads);
    printf("forks=%ld\n", iters * nforkers);
    return 0;
}

static int mode_vfork(int nthreads)
{
    pthread_t w[64];
    start(w, nthreads, worker);
    char *argv[] = {"true", NULL}, *envp[] = {NULL};
    for (long i = 0; i < iters; i++) {
        pid_t pid = vfork();
        if (pid == 0) {
            execve("/bin/true", argv, envp);
            _exit(127);
        }
        reap(pid, "vfork");
    }
    atomic_store(&stop, 1);
    join(w, nthreads);
    printf("vforks=%ld\n", iters);
    return 0;
}

static int mode_vfork_close(void)
{
    char p[4096];
    path_of(p, sizeof p, "vf");
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 || write(fd, "one\n", 4) != 4)
        return fail("create", p, errno), -1;
    pid_t pid = vfork();
    if (pid == 0) {
        close(fd);
        _exit(0);
    }
    reap(pid, "vfork");
    if (write(fd, "two\n", 4) != 4)
        fail("write", p, errno);
    close(fd);
    return 0;
}

static pthread_barrier_t barrier;

static void *race_open(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&barrier);
    char tag[32];
    snprintf(tag, sizeof tag, "i%d.%ld", (int)getpid(), (long)arg);
    read_write(tag, 0);
    char p[4096], name[64];
    snprintf(name, sizeof name, "r.%s", tag);
    path_of(p, sizeof p, name);
    unlink(p);
    snprintf(name, sizeof name, "n.%s.0", tag);
    path_of(p, sizeof p, name);
    unlink(p);
    return NULL;
}

static void *race_fork(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&barrier);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child_work());
    reap(pid, "fork");
    return NULL;
}

static int mode_init_race(void)
{
    pthread_t t[4];
    pthread_barrier_init(&barrier, NULL, 4);
    pthread_create(&t[0], NULL, race_open, (void *)0L);
    pthread_create(&t[1], NULL, race_fork, NULL);
    pthread_create(&t[2], NULL, race_open, (void *)1L);
    pthread_create(&t[3], NULL, race_fork, NULL);
    join(t, 4);
    return 0;
}

static int mode__Fork(void)
{
    pid_t pid = _Fork();
    if (pid == 0)
        _exit(child_work());
    reap(pid, "_Fork");
    return 0;
}

static void on_alarm(int sig)
{
    (void)sig;
    int saved = errno;
    char p[4096];
    path_of(p, sizeof p, "r.handler");
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        fail("handler read-open", p, errno);
    else
        close(fd);
    refused();
    atomic_fetch_add(&handler_runs, 1);
    errno = saved;
}

/* Creates NAME afresh, writes and closes it, then rewrites it: the
 * rewrite is the session's own write, so it must be allowed. With stdio,
 * the rewrite is an fopen, fputs and fclose (never in a handler: fopen
 * allocates). */
static int create_rewrite(const char *name, bool stdio)
{
    char p[4096];
    path_of(p, sizeof p, name);
    unlink(p);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return fail("create", p, errno), -1;
    if (write(fd, "new", 3) != 3)
        fail("write", p, errno);
    close(fd);
    if (stdio) {
        FILE *f = fopen(p, "w");
        if (!f)
            return fail("fopen rewrite of a file the session created", p, errno), -1;
        if (fputs("again", f) < 0 || fclose(f) != 0)
            fail("fopen rewrite", p, errno);
        return 0;
    }
    fd = open(p, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return fail("rewrite of a file the session created", p, errno), -1;
    if (write(fd, "again", 5) != 5)
        fail("rewrite", p, errno);
    close(fd);
    return 0;
}

static void on_alarm_create(int sig)
{
    (void)sig;
    int saved = errno;
    create_rewrite("h.handler", false);
    atomic_fetch_add(&handler_runs, 1);
    errno = saved;
}

static int mode_signals_create(void)
{
    struct sigaction sa = {.sa_handler = on_alarm_create, .sa_flags = SA_RESTART};
    sigaction(SIGALRM, &sa, NULL);
    /* Slower than signals': the handler's unlink keeps old bytes, and a
     * handler longer than the interval would starve the main thread. */
    struct itimerval it = {{0, 20 * interval_us}, {0, 20 * interval_us}};
    setitimer(ITIMER_REAL, &it, NULL);
    long i;
    for (i = 0; i < iters && !atomic_load(&failures); i++)
        if (create_rewrite("n.main", i % 2) < 0 || create_rewrite("n.main.f", true) < 0 ||
            refused() < 0)
            break;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("handler=%ld main=%ld\n", atomic_load(&handler_runs), i);
    return 0;
}

/* Appends a byte to DIR/shared, which the session read: its own write. */
static int append_shared(void)
{
    char p[4096];
    path_of(p, sizeof p, "shared");
    int fd = open(p, O_WRONLY | O_APPEND);
    if (fd < 0)
        return fail("append to a file the session read and wrote", p, errno), -1;
    if (write(fd, "x", 1) != 1)
        fail("append", p, errno);
    close(fd);
    return 0;
}

static void on_alarm_append(int sig)
{
    (void)sig;
    int saved = errno;
    append_shared();
    atomic_fetch_add(&handler_runs, 1);
    errno = saved;
}

static int mode_signals_append(void)
{
    char p[4096], b[64];
    path_of(p, sizeof p, "shared");
    int fd = open(p, O_RDONLY);
    if (fd < 0 || read(fd, b, sizeof b) < 0)
        return fail("read", p, errno), -1;
    close(fd);
    struct sigaction sa = {.sa_handler = on_alarm_append, .sa_flags = SA_RESTART};
    sigaction(SIGALRM, &sa, NULL);
    /* A handler's close that lands on the main thread's restamp of the
     * same file, in the middle of it. */
    struct itimerval it = {{0, 150}, {0, 150}};
    setitimer(ITIMER_REAL, &it, NULL);
    long i;
    for (i = 0; i < iters && !atomic_load(&failures); i++)
        if (append_shared() < 0)
            break;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("handler=%ld main=%ld\n", atomic_load(&handler_runs), i);
    return 0;
}

static int mode_signals(void)
{
    char p[4096];
    path_of(p, sizeof p, "r.handler");
    int fd = open(p, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0)
        close(fd);
    struct sigaction sa = {.sa_handler = on_alarm, .sa_flags = SA_RESTART};
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, interval_us}, {0, interval_us}};
    setitimer(ITIMER_REAL, &it, NULL);
    long i;
    for (i = 0; i < iters && !atomic_load(&failures); i++)
        if (read_write("main", i) < 0 || refused() < 0)
            break;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("handler=%ld main=%ld\n", atomic_load(&handler_runs), i);
    return atomic_load(&handler_runs) > 0 ? 0 : (fail("the handler never ran", "", 0), 0);
}

static int mode_spin(const char *tag)
{
    for (long i = 0;; i++) {
        for (int k = 0; k < 10; k++) {
            char p[4096], name[16];
            snprintf(name, sizeof name, "s.%d", k);
            path_of(p, sizeof p, name);
            int fd = open(p, O_RDONLY);
            if (fd < 0)
                return fail("read-open", p, errno), 1;
            close(fd);
        }
        /* Not every time: each refusal is a stderr and a log line. */
        if (read_write(tag, i) < 0 || (i % 50 == 0 && refused() < 0))
            return 1;
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "fork") == 0 && argc == 6) {
        iters = atol(argv[4]);
        dir = argv[5];
        mode_fork(atoi(argv[2]), atoi(argv[3]));
    } else if (strcmp(mode, "vfork") == 0 && argc == 5) {
        iters = atol(argv[3]);
        dir = argv[4];
        mode_vfork(atoi(argv[2]));
    } else if (strcmp(mode, "init-race") == 0 && argc == 3) {
        dir = argv[2];
        mode_init_race();
    } else if (strcmp(mode, "_Fork") == 0 && argc == 3) {
        dir = argv[2];
        mode__Fork();
    } else if (strcmp(mode, "spin") == 0 && argc == 4) {
        dir = argv[3];
        return mode_spin(argv[2]);
    } else if (strcmp(mode, "signals") == 0 && argc == 4) {
        iters = atol(argv[2]);
        dir = argv[3];
        mode_signals();
    } else if (strcmp(mode, "vfork-close") == 0 && argc == 3) {
        dir = argv[2];
        mode_vfork_close();
    } else if (strcmp(mode, "signals-append") == 0 && argc == 4) {
        iters = atol(argv[2]);
        dir = argv[3];
        mode_signals_append();
    } else if (strcmp(mode, "signals-create") == 0 && argc == 4) {
        iters = atol(argv[2]);
        dir = argv[3];
        mode_signals_create();
    } else {
        fprintf(stderr, "usage: see the comment at the top of rgthreads.c\n");
        return 2;
    }
    return atomic_load(&failures) ? 1 : 0;
}
