/* The command's process tree under readguard run: signals forwarded to it,
 * its exec, and waiting for it as its subreaper. */
#include "cli/launch/tree.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launch/handoff.h"
#include "cli/shown.h"
#include "core/pathsearch.h"
extern char **environ;
/* Process-wide: the signal handler below, the process's, has no other way in. */
static volatile sig_atomic_t child_pid;

/* Signals sent to readguard go on to the command. Those the terminal sends
 * (SI_KERNEL) already reached the whole foreground group, the command too. */
static void forward(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    if (child_pid > 0 && info->si_code != SI_KERNEL)
        kill(child_pid, sig);
}

static const int forwarded[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM};

void rg_tree_forward_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        sigaction(forwarded[i], &sa, NULL);
}

/* Whether cmd is a file execvp would have run: ENOENT then means that its
 * interpreter (a #! line's, or the ELF loader) is missing, and "No such file
 * or directory" would send the user looking for the wrong file. */
static bool on_path(const char *cmd)
{
    if (strchr(cmd, '/'))
        return access(cmd, F_OK) == 0;
    struct rg_search search;
    char name[RG_SEARCH_BUF];
    if (!*cmd || rg_search_start(&search, getenv("PATH"), cmd) != 0)
        return false;
    while (rg_search_next(&search, name))
        if (access(name, X_OK) == 0)
            return true;
    return false;
}

void rg_tree_exec(char **cmd, bool preload)
{
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        signal(forwarded[i], SIG_DFL);
    execvpe(cmd[0], cmd, preload ? rg_handoff_env(cmd[0]) : environ);
    int e = errno;
    struct stat st;
    /* execve says EACCES of a directory; the shells' word is clearer. */
    if (e == EACCES && strchr(cmd[0], '/') && stat(cmd[0], &st) == 0 && S_ISDIR(st.st_mode))
        rg_err("'%s': is a directory", rg_shown(cmd[0]));
    else if (e == ENOENT && on_path(cmd[0]))
        rg_err("'%s': cannot execute: its interpreter (the #! line's, or the ELF loader) was not "
               "found; 'readguard doctor %s' names it",
               rg_shown(cmd[0]), rg_shown(cmd[0]));
    else
        rg_err("'%s': %s", rg_shown(cmd[0]), strerror(e));
    _exit(e == ENOENT || e == ENOTDIR ? RG_EXIT_NOT_FOUND : RG_EXIT_CANNOT_RUN);
}

/* Waits for the command, then for the rest of the tree (readguard is its
 * subreaper) while whole is set, else only for what has already exited.
 * Returns the command's exit status in the env(1) convention; *rest: a
 * process of the tree is still running, unwaited for. */
int rg_tree_wait(pid_t child, bool whole, bool *rest)
{
    int status, result = RG_EXIT_FAILURE;
    child_pid = child;
    *rest = false;
    for (;;) {
        pid_t pid = waitpid(-1, &status, child_pid || whole ? 0 : WNOHANG);
        if (pid == 0) { /* the command is done; what it left runs on */
            *rest = true;
            break;
        }
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break; /* ECHILD: the tree is gone */
        }
        if (pid != child)
            continue;
        child_pid = 0;
        if (WIFEXITED(status))
            result = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            result = 128 + WTERMSIG(status);
    }
    return result;
}
