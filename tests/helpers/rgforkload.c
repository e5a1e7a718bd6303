/*
 * rgforkload: a child made by _Fork() while another thread holds the
 * dynamic loader's lock execs a program without an envp, for the
 * readguard end-to-end tests.
 *
 *   rgforkload LIB [PROG]   a thread dlopen()s LIB (librgloadwait.so),
 *                           whose constructor holds the loader's lock
 *                           until told; the main thread then _Fork()s,
 *                           and the child execv()s PROG (default
 *                           /bin/true) with no arguments; once the child
 *                           is reaped, the constructor is let go
 *
 * _Fork runs no fork handlers and leaves the loader's lock as it was, held
 * by a thread the child does not have: an exec there (async-signal-safe,
 * so allowed) must not wait for that lock, or it waits forever.
 *
 * Exit status: 0 the child exec'd and exited 0, 1 a call failed or the
 * child did not, 2 usage.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t _Fork(void);

static void *load(void *lib)
{
    if (!dlopen(lib, RTLD_NOW))
        fprintf(stderr, "rgforkload: %s\n", dlerror());
    return NULL;
}

static int set_fd(const char *name, int fd)
{
    char v[16];
    snprintf(v, sizeof v, "%d", fd);
    return setenv(name, v, 1);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3)
        return fprintf(stderr, "usage: rgforkload LIB [PROG]\n"), 2;
    const char *prog = argc == 3 ? argv[2] : "/bin/true";
    int in[2], go[2];
    pthread_t t;
    char b;
    if (pipe(in) != 0 || pipe(go) != 0 || set_fd("RGLOADWAIT_IN", in[1]) != 0 ||
        set_fd("RGLOADWAIT_GO", go[0]) != 0 || pthread_create(&t, NULL, load, argv[1]) != 0 ||
        read(in[0], &b, 1) != 1)
        return perror("rgforkload: set-up"), 1;
    pid_t pid = _Fork();
    if (pid == 0) {
        char *const av[] = {(char *)prog, NULL};
        execv(prog, av);
        _exit(127);
    }
    int st = 0;
    int reaped = pid > 0 && waitpid(pid, &st, 0) == pid;
    if (write(go[1], "g", 1) != 1 || pthread_join(t, NULL) != 0)
        return perror("rgforkload: release"), 1;
    if (!reaped || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return fprintf(stderr, "rgforkload: the child did not exec and exit 0\n"), 1;
    return 0;
}
