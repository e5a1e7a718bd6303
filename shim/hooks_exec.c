/* exec closes O_CLOEXEC descriptors without a close() call: restamp those
 * first. glibc's exec variants call its internal execve, so each needs its
 * own hook; the execl forms are rebuilt into argv arrays on the stack. */
#include <stdarg.h>
#include <unistd.h>

#include "hook.h"

static void before_exec(void)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (c) {
        rg_note_exec(c);
        rg_leave();
    }
    errno = saved;
}

int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags);

/* The system call itself, not dlsym's next execve: a shell forks for every
 * command and its parent never execs, so each child would look the symbol
 * up again (thousands of instructions and a copied page). glibc's execve
 * adds nothing to the system call. */
RG_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    before_exec();
    int saved = errno;
    return (int)rg_result(rg_syscall6(SYS_execve, (long)path, (long)argv, (long)envp, 0, 0, 0),
                          saved);
}

RG_EXPORT int execv(const char *path, char *const argv[])
{
    before_exec();
    return RG_REAL(execv)(path, argv);
}

RG_EXPORT int execvp(const char *file, char *const argv[])
{
    before_exec();
    return RG_REAL(execvp)(file, argv);
}

RG_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    before_exec();
    return RG_REAL(execvpe)(file, argv, envp);
}

RG_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                       int flags)
{
    before_exec();
    return RG_REAL(execveat)(dirfd, path, argv, envp, flags);
}

RG_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    before_exec();
    return RG_REAL(fexecve)(fd, argv, envp);
}

/* Counts the variadic arguments after arg0, up to the terminating NULL. */
#define COUNT_ARGS(arg0)                                                       \
    ({                                                                         \
        size_t n_ = 1;                                                         \
        va_list ap_;                                                           \
        va_start(ap_, arg0);                                                   \
        while (va_arg(ap_, char *))                                            \
            n_++;                                                              \
        va_end(ap_);                                                           \
        n_;                                                                    \
    })

/* Fills argv (n + 1 slots) and returns what follows the NULL (execle's envp). */
#define FILL_ARGS(arg0, argv, n)                                               \
    ({                                                                         \
        va_list ap_;                                                           \
        va_start(ap_, arg0);                                                   \
        (argv)[0] = (char *)(arg0);                                            \
        for (size_t i_ = 1; i_ <= (n); i_++)                                   \
            (argv)[i_] = va_arg(ap_, char *);                                  \
        char *const *env_ = va_arg(ap_, char *const *);                        \
        va_end(ap_);                                                           \
        env_;                                                                  \
    })

RG_EXPORT int execl(const char *path, const char *arg0, ...)
{
    size_t n = COUNT_ARGS(arg0);
    char *argv[n + 1];
    FILL_ARGS(arg0, argv, n);
    return execv(path, argv);
}

RG_EXPORT int execlp(const char *file, const char *arg0, ...)
{
    size_t n = COUNT_ARGS(arg0);
    char *argv[n + 1];
    FILL_ARGS(arg0, argv, n);
    return execvp(file, argv);
}

RG_EXPORT int execle(const char *path, const char *arg0, ...)
{
    size_t n = COUNT_ARGS(arg0);
    char *argv[n + 1];
    char *const *envp = FILL_ARGS(arg0, argv, n);
    return execve(path, argv, envp);
}
