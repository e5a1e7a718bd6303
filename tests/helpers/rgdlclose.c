/*
 * rgdlclose: a program that loads the shim itself, forks, unloads it and
 * forks again, for the readguard end-to-end tests.
 *
 *   rgdlclose SHIM   dlopen SHIM, fork, dlclose SHIM, fork
 *
 * Loading the shim registers its fork handlers (no session in the
 * environment: its constructor starts one). Were it unmapped by the
 * dlclose with them still registered, the second fork would call into
 * nothing and die of SIGSEGV.
 *
 * Exit status: 0 both forks done, 1 a call failed, 2 usage.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int fork_once(void)
{
    pid_t p = fork();
    if (p < 0)
        return perror("fork"), 1;
    if (p == 0)
        _exit(0);
    int st;
    if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return fprintf(stderr, "rgdlclose: the child did not exit 0\n"), 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: rgdlclose SHIM\n"), 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return fprintf(stderr, "rgdlclose: %s\n", dlerror()), 1;
    if (fork_once())
        return 1;
    if (dlclose(h) != 0)
        return fprintf(stderr, "rgdlclose: %s\n", dlerror()), 1;
    return fork_once();
}
