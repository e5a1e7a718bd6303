/*
 * rgexec: start a program with an empty environment through one libc entry
 * point, the way env -i, subprocess(env={}) or Rust's env_clear do, so the
 * tests can check that the session is handed on anyway.
 *
 *   rgexec VIA PROG [ARG]...
 *
 * VIA: execve execv execvp execvpe execl execlp execle execveat fexecve
 *      posix_spawn posix_spawnp system popen io_popen vfork-execve
 * execve, execvpe, execle, execveat, fexecve, posix_spawn(p) and vfork-execve pass an
 * envp of {NULL}; the others clear environ first (clearenv). PROG must be
 * an absolute path for the forms that do not search PATH. system and popen
 * run "PROG ARG..." as a shell command (arguments must not need quoting).
 * Exit status: the program's, or 127 if it could not be started.
 *
 *   rgexec vfork-bigenv N PROG
 *
 * runs PROG N times by vfork and execve with an environment of 400
 * variables and none of the session's (too large for the shim's stack
 * buffers), then prints by how many KiB the address space grew: what a
 * vfork child maps lives on in its parent's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *empty[] = {NULL};

static int wait_for(pid_t pid)
{
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int shell_command(const char *via, char **argv)
{
    char cmd[4096] = "";
    for (int i = 0; argv[i]; i++) {
        if (i)
            strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
        strncat(cmd, argv[i], sizeof cmd - strlen(cmd) - 1);
    }
    clearenv();
    if (strcmp(via, "system") == 0) {
        int st = system(cmd);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
    }
    /* io_popen: libio's public name of popen, found by dlsym. */
    FILE *(*open_pipe)(const char *, const char *) = popen;
    if (strcmp(via, "io_popen") == 0)
        open_pipe = (FILE * (*)(const char *, const char *)) dlsym(RTLD_DEFAULT, "_IO_popen");
    FILE *p = open_pipe ? open_pipe(cmd, "r") : NULL;
    if (!p)
        return 127;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        fwrite(buf, 1, n, stdout);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}

static long vm_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmSize:", 7) == 0)
            kib = atol(line + 7);
    if (f)
        fclose(f);
    return kib;
}

static int vfork_bigenv(int n, const char *prog)
{
    static char vars[400][64];
    char *env[401], *args[] = {(char *)prog, NULL};
    for (int i = 0; i < 400; i++) {
        snprintf(vars[i], sizeof vars[i], "RGBIG%d=%040d", i, i);
        env[i] = vars[i];
    }
    env[400] = NULL;
    long before = vm_kib();
    for (int i = 0; i < n; i++) {
        pid_t pid = vfork();
        if (pid == 0) {
            execve(prog, args, env);
            _exit(127);
        }
        if (pid < 0 || wait_for(pid) != 0)
            return 127;
    }
    printf("%ld\n", vm_kib() - before);
    return 0;
}

/* The exec forms that replace this process: VIA's call, with the empty
 * environment where it takes one and after clearenv() where it reads
 * environ. Returns only when the call failed (127), or VIA is unknown (2). */
static int exec_here(const char *via, const char *prog, char **args)
{
    /* Up to three arguments after PROG are enough for the tests' list forms. */
    char *a[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && args[i + 1]; i++)
        a[i] = args[i + 1];
    if (strcmp(via, "execve") == 0)
        execve(prog, args, empty);
    else if (strcmp(via, "execvpe") == 0)
        execvpe(prog, args, empty);
    else if (strcmp(via, "execveat") == 0)
        execveat(AT_FDCWD, prog, args, empty, 0);
    else if (strcmp(via, "fexecve") == 0)
        fexecve(open(prog, O_RDONLY | O_CLOEXEC), args, empty);
    else if (strcmp(via, "execle") == 0)
        execle(prog, prog, a[0], a[1], a[2], (char *)NULL, empty);
    else {
        clearenv(); /* the forms that pass environ on */
        if (strcmp(via, "execv") == 0)
            execv(prog, args);
        else if (strcmp(via, "execvp") == 0)
            execvp(prog, args);
        else if (strcmp(via, "execl") == 0)
            execl(prog, prog, a[0], a[1], a[2], (char *)NULL);
        else if (strcmp(via, "execlp") == 0)
            execlp(prog, prog, a[0], a[1], a[2], (char *)NULL);
        else {
            fprintf(stderr, "rgexec: unknown VIA %s\n", via);
            return 2;
        }
    }
    perror("rgexec");
    return 127;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rgexec VIA PROG [ARG]...\n");
        return 2;
    }
    const char *via = argv[1], *prog = argv[2];
    char **args = argv + 2;
    pid_t pid;
    if (strcmp(via, "vfork-bigenv") == 0)
        return argc == 4 ? vfork_bigenv(atoi(argv[2]), argv[3]) : 2;
    if (strcmp(via, "system") == 0 || strstr(via, "popen"))
        return shell_command(via, args);
    if (strcmp(via, "posix_spawn") == 0 || strcmp(via, "posix_spawnp") == 0) {
        int r = strcmp(via, "posix_spawn") == 0 ? posix_spawn(&pid, prog, NULL, NULL, args, empty)
                                                : posix_spawnp(&pid, prog, NULL, NULL, args, empty);
        return r ? 127 : wait_for(pid);
    }
    if (strcmp(via, "vfork-execve") == 0) {
        pid = vfork();
        if (pid == 0) {
            execve(prog, args, empty);
            _exit(127);
        }
        return pid < 0 ? 127 : wait_for(pid);
    }
    return exec_here(via, prog, args);
}
