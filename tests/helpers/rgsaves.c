/*
 * rgsaves: N threads save one file, each over and over by its own temp file
 * renamed onto it (an editor's or a tool's atomic save), for MS
 * milliseconds. The file is never read: each save replaces the session's
 * own last save, which a session must never refuse itself.
 *
 *   rgsaves N MS DST
 *
 * Prints "saves=K" (K > 0). Exit status: 0 every save landed, 1 a rename
 * failed (EACCES: refused), 2 another failure, 64 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *dst;
static volatile int stop;
static int failed; /* the worst exit status seen, updated atomically */
static long saves; /* updated atomically */

static void fail(int status, const char *what, const char *path, int e)
{
    fprintf(stderr, "rgsaves: %s %s: %s\n", what, path, strerror(e));
    __atomic_fetch_or(&failed, status, __ATOMIC_SEQ_CST);
}

static void *saver(void *arg)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", dst, (long)arg);
    while (!stop && !__atomic_load_n(&failed, __ATOMIC_SEQ_CST)) {
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            return fail(2, "open", tmp, errno), NULL;
        if (write(fd, "x\n", 2) != 2 || close(fd) != 0)
            return fail(2, "write", tmp, errno), NULL;
        if (rename(tmp, dst) != 0)
            return fail(errno == EACCES ? 1 : 2, "rename onto", dst, errno), NULL;
        __atomic_add_fetch(&saves, 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t[64];
    int n = argc == 4 ? atoi(argv[1]) : 0, ms = argc == 4 ? atoi(argv[2]) : 0;
    if (n < 1 || n > 64 || ms < 1) {
        fprintf(stderr, "usage: rgsaves N MS DST\n");
        return 64;
    }
    dst = argv[3];
    for (long i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, saver, (void *)i) != 0)
            return 2;
    usleep((useconds_t)ms * 1000);
    stop = 1;
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    printf("saves=%ld\n", saves);
    return failed & 1 ? 1 : failed;
}
