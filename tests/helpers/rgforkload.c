/*
 * rgforkload: a child made by _Fork() while another thread holds the
 * dynamic loader's lock execs a program without an envp, for the
 * readguard end-to-end tests.
 *
 *   rgforkload LIB [PROG [CALL]]
 *                           a thread dlopen()s LIB (librgloadwait.so),
 *                           whose constructor holds the loader's lock
 *                           until told; the main thread then _Fork()s,
 *                           and the child runs PROG (default /bin/true)
 *                           with no arguments through CALL: execv (the
 *                           default), execvp, execvpe or execlp, which
 *                           search PATH when PROG has no '/', or
 *                           posix_spawn, posix_spawnp, system or popen
 *                           (then the child waits and exits with PROG's
 *                           status); once the child is reaped, the
 *                           constructor is let go
 *
 * _Fork runs no fork handlers and leaves the loader's lock as it was, held
 * by a thread the child does not have: an exec there (async-signal-safe,
 * so allowed) must not wait for that lock, or it waits forever; nor may
 * the spawns and shell calls, which a child of a program that forks from
 * any thread may make as well.
 *
 * A variable RGFORKLOAD_UNSET, if set, is unset first, as a program that
 * tidies its environment does: glibc's unsetenv shifts the start-up
 * environment down in place.
 *
 * Exit status: 0 the child exec'd and exited 0, 1 a call failed or the
 * child did not, 2 usage.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t _Fork(void);

static void *load(void *lib)
{
    if (!dlopen(lib, RTLD_NOW))
        fprintf(stderr, "rgforkload: %s\n", dlerror());
    return NULL;
}

static const char *const CALLS[] = {"execv",       "execvp",       "execvpe", "execlp",
                                    "posix_spawn", "posix_spawnp", "system",  "popen"};

static int known(const char *call)
{
    for (size_t i = 0; i < sizeof CALLS / sizeof *CALLS; i++)
        if (strcmp(call, CALLS[i]) == 0)
            return 1;
    return 0;
}

/* The exit status of a child started by a spawn or a shell call, or 127. */
static int started(const char *call, const char *prog, char *const av[])
{
    pid_t pid;
    int st = 0;
    if (strcmp(call, "system") == 0) {
        st = system(prog);
    } else if (strcmp(call, "popen") == 0) {
        FILE *f = popen(prog, "r");
        st = f ? pclose(f) : -1;
    } else {
        int (*spawn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
                     const posix_spawnattr_t *, char *const[], char *const[]) =
            strcmp(call, "posix_spawnp") == 0 ? posix_spawnp : posix_spawn;
        if (spawn(&pid, prog, NULL, NULL, av, environ) != 0 || waitpid(pid, &st, 0) != pid)
            return 127;
    }
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}

/* Returns only when the exec failed. */
static void run(const char *call, const char *prog)
{
    char *const av[] = {(char *)prog, NULL};
    if (strcmp(call, "execvp") == 0)
        execvp(prog, av);
    else if (strcmp(call, "execvpe") == 0)
        execvpe(prog, av, environ);
    else if (strcmp(call, "execlp") == 0)
        execlp(prog, prog, (char *)NULL);
    else if (strcmp(call, "execv") == 0)
        execv(prog, av);
    else
        _exit(started(call, prog, av));
}

static int set_fd(const char *name, int fd)
{
    char v[16];
    snprintf(v, sizeof v, "%d", fd);
    return setenv(name, v, 1);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4)
        return fprintf(stderr, "usage: rgforkload LIB [PROG [CALL]]\n"), 2;
    const char *prog = argc >= 3 ? argv[2] : "/bin/true", *call = argc == 4 ? argv[3] : "execv";
    if (!known(call))
        return fprintf(stderr, "rgforkload: no call %s\n", call), 2;
    unsetenv("RGFORKLOAD_UNSET");
    int in[2], go[2];
    pthread_t t;
    char b;
    if (pipe(in) != 0 || pipe(go) != 0 || set_fd("RGLOADWAIT_IN", in[1]) != 0 ||
        set_fd("RGLOADWAIT_GO", go[0]) != 0 || pthread_create(&t, NULL, load, argv[1]) != 0 ||
        read(in[0], &b, 1) != 1)
        return perror("rgforkload: set-up"), 1;
    pid_t pid = _Fork();
    if (pid == 0) {
        run(call, prog);
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
