/*
 * hammer: N workers (threads or processes) of one readguard session read
 * and write the same files in parallel.  Every iteration a worker reads each
 * file completely and then saves it, alternating between an in-place
 * O_WRONLY|O_TRUNC write and a "temp file + rename" save.  Inside one
 * session none of these writes may be refused.
 *
 *   hammer threads|procs N ITERS FILE...
 *
 * Prints one line per failed call on stderr ("hammer: worker W iter I: OP
 * PATH: ENAME").  Exit status: 0 no failure, 1 at least one EACCES,
 * 2 other failures only, 64 usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int nfiles;
static char **files;
static int iters;
static int nacces; /* updated atomically */
static int nother; /* updated atomically */

static void report(int w, int i, const char *op, const char *path, int e)
{
    fprintf(stderr, "hammer: worker %d iter %d: %s %s: %s\n", w, i, op, path,
            e == EACCES ? "EACCES" : strerror(e));
    if (e == EACCES)
        __atomic_add_fetch(&nacces, 1, __ATOMIC_SEQ_CST);
    else
        __atomic_add_fetch(&nother, 1, __ATOMIC_SEQ_CST);
}

static int read_all(const char *path)
{
    char buf[4096];
    ssize_t n;
    int fd = open(path, O_RDONLY);

    if (fd < 0)
        return errno;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        ;
    if (n < 0) {
        int e = errno;

        close(fd);
        return e;
    }
    close(fd);
    return 0;
}

static int write_to(const char *path, int flags, const char *text)
{
    size_t len = strlen(text), off = 0;
    int fd = open(path, flags, 0644);

    if (fd < 0)
        return errno;
    while (off < len) {
        ssize_t n = write(fd, text + off, len - off);

        if (n < 0) {
            int e = errno;

            close(fd);
            return e;
        }
        off += (size_t)n;
    }
    if (close(fd) < 0)
        return errno;
    return 0;
}

static void *worker(void *arg)
{
    int w = (int)(long)arg;
    int i, f, e;
    char text[128], tmp[4096];

    for (i = 0; i < iters; i++) {
        for (f = 0; f < nfiles; f++) {
            const char *path = files[f];

            snprintf(text, sizeof text, "worker %d iteration %d\n", w, i);
            e = read_all(path);
            if (e) {
                report(w, i, "read", path, e);
                continue;
            }
            if (i % 2 == 0) {
                e = write_to(path, O_WRONLY | O_TRUNC, text);
                if (e)
                    report(w, i, "write", path, e);
            } else {
                snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%d", path, (long)getpid(), w);
                e = write_to(tmp, O_WRONLY | O_CREAT | O_EXCL, text);
                if (e) {
                    report(w, i, "create", tmp, e);
                    continue;
                }
                if (rename(tmp, path) < 0) {
                    report(w, i, "rename", path, errno);
                    unlink(tmp);
                }
            }
        }
    }
    return NULL;
}

/* N or ITERS, by strtol: one that is not a whole number is 0, refused. */
static int count(const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    return *s && !*end && n > 0 && n <= 1000000000 ? (int)n : 0;
}

/* The workers as threads of this process: 0, or 2 if one cannot start. */
static int run_threads(int n)
{
    pthread_t *tid = calloc((size_t)n, sizeof *tid);

    if (!tid)
        return 2;
    for (int w = 0; w < n; w++) {
        int rc = pthread_create(&tid[w], NULL, worker, (void *)(long)w);

        if (rc) {
            fprintf(stderr, "hammer: pthread_create: %s\n", strerror(rc));
            free(tid);
            return 2;
        }
    }
    for (int w = 0; w < n; w++)
        pthread_join(tid[w], NULL);
    free(tid);
    return 0;
}

/* The workers as processes, whose exit statuses count into nacces and
 * nother: 0, or 2 if one cannot be started or waited for. */
static int run_procs(int n)
{
    pid_t *pid = calloc((size_t)n, sizeof *pid);

    if (!pid)
        return 2;
    fflush(stderr);
    for (int w = 0; w < n; w++) {
        pid[w] = fork();
        if (pid[w] < 0) {
            perror("hammer: fork");
            free(pid);
            return 2;
        }
        if (pid[w] == 0) {
            worker((void *)(long)w);
            _exit(nacces ? 1 : nother ? 2 : 0);
        }
    }
    for (int w = 0; w < n; w++) {
        int st;

        if (waitpid(pid[w], &st, 0) < 0) {
            perror("hammer: waitpid");
            free(pid);
            return 2;
        }
        if (!WIFEXITED(st)) {
            fprintf(stderr, "hammer: worker %d died (status %#x)\n", w, st);
            nother++;
        } else if (WEXITSTATUS(st) == 1) {
            nacces++;
        } else if (WEXITSTATUS(st) != 0) {
            nother++;
        }
    }
    free(pid);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5 || (strcmp(argv[1], "threads") != 0 && strcmp(argv[1], "procs") != 0)) {
        fprintf(stderr, "usage: hammer threads|procs N ITERS FILE...\n");
        return 64;
    }
    int threads = strcmp(argv[1], "threads") == 0;
    int n = count(argv[2]);
    iters = count(argv[3]);
    files = argv + 4;
    nfiles = argc - 4;
    if (n < 1 || n > 256 || iters < 1) {
        fprintf(stderr, "hammer: bad N or ITERS\n");
        return 64;
    }
    if ((threads ? run_threads(n) : run_procs(n)) != 0)
        return 2;
    if (nacces)
        return 1;
    return nother ? 2 : 0;
}
