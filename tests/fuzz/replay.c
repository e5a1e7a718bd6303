/* Replays a committed fuzz corpus without libFuzzer: built with gcc and one
 * harness, it feeds every file of the harness's corpus directory to
 * LLVMFuzzerTestOneInput and prints TAP, so `make test` keeps the corpus as
 * a regression test on machines without clang. A crash or a failed property
 * (abort) is reported with the file that caused it.
 * Usage: replay [DIR|FILE]...   (default: the corpus it was built for) */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#ifndef FUZZ_CORPUS
#error "build with -DFUZZ_CORPUS='\"tests/fuzz/corpus/NAME\"'"
#endif

static char current[4096];

static void on_crash(int sig)
{
    static const char pre[] = "not ok - crashed on ";
    ssize_t w = write(STDOUT_FILENO, pre, sizeof pre - 1);
    w += write(STDOUT_FILENO, current, strlen(current));
    w += write(STDOUT_FILENO, "\n", 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

static int replay_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(path);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    /* An exact-size heap copy, so ASan sees a read past the input's end. */
    uint8_t *buf = malloc(size ? size : 1);
    size_t got = 0;
    while (buf && got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf || got != size) {
        fprintf(stderr, "%s: short read\n", path);
        free(buf);
        return -1;
    }
    snprintf(current, sizeof current, "%s", path);
    LLVMFuzzerTestOneInput(buf, size);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns how many inputs were replayed, or -1. */
static int replay(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return replay_file(path) == 0 ? 1 : -1;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown)
            break;
        names = grown;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, names[i]);
        if (count >= 0)
            count = replay_file(file) == 0 ? count + 1 : -1;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGABRT, on_crash);
    signal(SIGFPE, on_crash);
    const char *def[] = {FUZZ_CORPUS};
    char **dirs = argc > 1 ? argv + 1 : (char **)def;
    int ndirs = argc > 1 ? argc - 1 : 1;
    int failed = 0;
    for (int i = 0; i < ndirs; i++) {
        int n = replay(dirs[i]);
        /* An empty corpus proves nothing: that is a failure too. */
        if (n > 0)
            printf("ok %d - %s: %d inputs replayed\n", i + 1, dirs[i], n);
        else
            printf("not ok %d - %s: %s\n", i + 1, dirs[i], n == 0 ? "no inputs" : "unreadable");
        failed |= n <= 0;
    }
    printf("1..%d\n", ndirs);
    return failed;
}
