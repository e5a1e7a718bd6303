/* rgvforkexec DIR N: threads write files through the hooks while main
 * vforks and execs /bin/true N times; prints ok=K */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile int stop;

/* vfork's child runs on this frame: the counters live in registers it may clobber */
static pid_t spawn_true(void)
{
    pid_t p = vfork();
    if (p == 0) {
        execl("/bin/true", "true", (char *)0);
        _exit(127);
    }
    return p;
}
static void *writer(void *arg)
{
    char name[16];
    snprintf(name, sizeof name, "t%ld", (long)arg);
    while (!stop) {
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            perror(name);
            exit(4);
        }
        if (write(fd, "x", 1) != 1)
            exit(4);
        close(fd);
        rename(name, name[0] == 't' ? "dst" : name);
    }
    return 0;
}
int main(int argc, char **argv)
{
    pthread_t t[4];
    int n, ok = 0, i, st;

    if (argc < 3 || (n = atoi(argv[2])) < 0 || chdir(argv[1]))
        return 3;
    for (long k = 0; k < 4; k++)
        pthread_create(&t[k], 0, writer, (void *)k);
    for (i = 0; i < n; i++) {
        pid_t p = spawn_true();
        if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0)
            ok++;
    }
    stop = 1;
    for (i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    printf("ok=%d\n", ok);
    return 0;
}
