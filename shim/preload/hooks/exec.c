/* The exec family. Two jobs before the real call: restamp the O_CLOEXEC
 * descriptors that exec closes without a close() call, and hand the new image
 * the environment of the session (core/envp.h) when the program scrubbed it,
 * with the build of the shim its loader can load, or none (a musl program dies
 * on glibc's shim): rg_exec_choose looks at the program first. glibc's
 * variants call its internal execve, so each needs its own hook.
 *
 * These run in vfork children, which share the parent's memory: they never
 * start the shim's state, never touch environ and never allocate (the new
 * envp lives on the stack, or in a private mapping when it is very large).
 * execve, execveat and fexecve are the system calls themselves, so they
 * call no dlsym: a shell forks for every command and its parent never
 * execs, so each child would look the symbol up again (thousands of
 * instructions and a copied page). The forms without an envp (execv,
 * execvp, execl, execlp) read environ, linked (os/libcvar.h): a dlsym
 * takes the loader's lock, which a child forked while another thread held
 * it (a dlopen running constructors) has held by a thread it does not
 * have. For that reason the PATH searches (execvp, execvpe, execlp) are
 * glibc's redone (execsearch.c). The spawns use glibc's, found on first
 * use without that lock (RG_REAL, os/nextsym.h). */
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <unistd.h>

#include "core/envp.h"
#include "core/hot.h"
#include "os/exec_target.h"
#include "os/libcvar.h"
#include "preload/hook.h"
#include "preload/hooks/exec.h"
#include "preload/hooks/execenv.h"

/* Like rg_sys_execve (exec.h), errno untouched unless it fails. */
RG_START_TEXT static int sys_execveat(int dirfd, const char *path, char *const argv[],
                                      char *const envp[], int flags)
{
    return (int)rg_result_raw(
        rg_syscall6(SYS_execveat, dirfd, (long)path, (long)argv, (long)envp, flags, 0));
}

/* A process whose tracked descriptors all stay open across the exec (a
 * shell's forked child, mostly) has nothing to restamp: it does not enter
 * the critical section nor ask its pid, three system calls fewer. errno is
 * saved only around a restamp. */
RG_START_TEXT static void restamp_cloexec(void)
{
    struct rg_ctx *r = rg_ready();
    int first = r ? rg_exec_first_closed(r) : -1;
    if (first < 0)
        return;
    struct rg_ctx *c = rg_enter_ready();
    if (c) {
        int saved = errno;
        rg_note_exec(c, first);
        errno = saved;
        rg_leave();
    }
}

/* What every exec does first. A vfork child's exec notes the child in
 * its parent's memory (rg_note_child). */
RG_START_TEXT static void exec_begins(void)
{
    rg_note_child();
    restamp_cloexec();
}

/* After an exec that returned (it failed), or a spawn. */
RG_START_TEXT static int done(struct rg_env_space *sp, int r)
{
    if (sp)
        rg_env_space_free(sp);
    return r;
}

/* Runs CALL with envp replaced by the environment in `env_` that the
 * program at (dirfd, path, at_flags) is to get. The common exec (envp lacks
 * nothing, the program is of this build's libc) takes a few words of stack:
 * a shell's forked child pays a page fault for each stack page it writes
 * (a copy of its parent's), and the rebuilt environment (10 KiB) and the
 * other libc's entry (PATH_MAX) are taken from the stack (alloca, alive
 * until the hook returns) only when they are needed. */
#define WITH_SESSION_ENV(name, dirfd, path, at_flags, envp, call)                          \
    ({                                                                                     \
        const char *path_ = (path);                                                        \
        struct rg_target t_;                                                               \
        struct rg_env_need need_;                                                          \
        char *const *in_ = (envp), *const *env_ = in_;                                     \
        rg_exec_target(rg_ctx_exec_cache(), (dirfd), path_, (at_flags), &t_);              \
        bool whole_ =                                                                      \
            rg_exec_settle(rg_ctx_exec_env(), rg_ready(), (name), path_, &t_, in_, &need_, \
                           rg_exec_foreign(&t_) ? __builtin_alloca(PATH_MAX) : NULL);      \
        struct rg_env_space *sp_ = NULL;                                                   \
        if (!whole_) {                                                                     \
            size_t big_;                                                                   \
            sp_ = __builtin_alloca(sizeof *sp_);                                           \
            env_ = rg_session_envp(in_, sp_, &need_, &big_);                               \
            if (big_)                                                                      \
                env_ = rg_envp_in(in_, &need_, __builtin_alloca(big_), big_);              \
        }                                                                                  \
        env_ ? done(sp_, (call)) : -1;                                                     \
    })

/* The program a PATH search of libc's will run, as far as the exec's
 * environment depends on it. */
#define SEARCHED(file, buf) (rg_exec_search((file), (buf), sizeof(buf)) ? (buf) : NULL)

/* The shim never calls its own exported names: the hooks below share these. */
RG_START_TEXT static int exec_path(const char *name, const char *path, char *const argv[],
                                   char *const envp[])
{
    exec_begins();
    return WITH_SESSION_ENV(name, AT_FDCWD, path, 0, envp, rg_sys_execve(path, argv, env_));
}

#ifdef __GLIBC__
static int exec_file(const char *name, const char *file, char *const argv[], char *const envp[])
{
    exec_begins();
    return rg_exec_path_search(name, file, argv, envp);
}
#else
/* musl's search is not glibc's (another default PATH, no shell for a file
 * with no #! line): a musl program keeps its own, found on first use. */
static int exec_file(const char *name, const char *file, char *const argv[], char *const envp[])
{
    exec_begins();
    char found[PATH_MAX];
    return WITH_SESSION_ENV(name, AT_FDCWD, SEARCHED(file, found), 0, envp,
                            RG_REAL(execvpe)(file, argv, env_));
}
#endif

RG_START_TEXT static int exec_at(const char *name, int dirfd, const char *path, char *const argv[],
                                 char *const envp[], int flags)
{
    exec_begins();
    return WITH_SESSION_ENV(name, dirfd, path, flags, envp,
                            sys_execveat(dirfd, path, argv, env_, flags));
}

/* glibc's fexecve: execveat, with a /proc fallback before Linux 3.19. */
RG_START_TEXT static int exec_fd(const char *name, int fd, char *const argv[], char *const envp[])
{
    exec_begins();
    return WITH_SESSION_ENV(name, fd, "", AT_EMPTY_PATH, envp,
                            sys_execveat(fd, "", argv, env_, AT_EMPTY_PATH));
}

/* posix_spawn returns its error instead of setting errno. */
static int spawn_result(int r, int saved)
{
    rg_note_child();
    r = r < 0 ? errno : r;
    errno = saved;
    return r;
}

/* Counts the variadic arguments after arg0, up to the terminating NULL. */
#define COUNT_ARGS(arg0)            \
    ({                              \
        size_t n_ = 1;              \
        va_list ap_;                \
        va_start(ap_, arg0);        \
        while (va_arg(ap_, char *)) \
            n_++;                   \
        va_end(ap_);                \
        n_;                         \
    })

/* Fills argv (n + 1 slots) and returns what follows the NULL (execle's envp). */
#define FILL_ARGS(arg0, argv, n)                        \
    ({                                                  \
        va_list ap_;                                    \
        va_start(ap_, arg0);                            \
        (argv)[0] = (char *)(arg0);                     \
        for (size_t i_ = 1; i_ <= (n); i_++)            \
            (argv)[i_] = va_arg(ap_, char *);           \
        char *const *env_ = va_arg(ap_, char *const *); \
        va_end(ap_);                                    \
        env_;                                           \
    })

#define HOOK_EXECVE(sym)                                                                      \
    RG_EXPORT RG_START_TEXT int sym(const char *path, char *const argv[], char *const envp[]) \
    {                                                                                         \
        return exec_path(#sym, path, argv, envp);                                             \
    }

#define HOOK_EXECV(sym)                                                   \
    RG_EXPORT RG_START_TEXT int sym(const char *path, char *const argv[]) \
    {                                                                     \
        return exec_path(#sym, path, argv, rg_libc_environ());            \
    }

#define HOOK_EXECVPE(sym)                                                                     \
    RG_EXPORT RG_START_TEXT int sym(const char *file, char *const argv[], char *const envp[]) \
    {                                                                                         \
        return exec_file(#sym, file, argv, envp);                                             \
    }

#define HOOK_EXECVP(sym)                                                  \
    RG_EXPORT RG_START_TEXT int sym(const char *file, char *const argv[]) \
    {                                                                     \
        return exec_file(#sym, file, argv, rg_libc_environ());            \
    }

#define HOOK_EXECVEAT(sym)                                                           \
    RG_EXPORT RG_START_TEXT int sym(int dirfd, const char *path, char *const argv[], \
                                    char *const envp[], int flags)                   \
    {                                                                                \
        return exec_at(#sym, dirfd, path, argv, envp, flags);                        \
    }

#define HOOK_FEXECVE(sym)                                                           \
    RG_EXPORT RG_START_TEXT int sym(int fd, char *const argv[], char *const envp[]) \
    {                                                                               \
        return exec_fd(#sym, fd, argv, envp);                                       \
    }

#define HOOK_EXECL(sym)                                                      \
    RG_EXPORT RG_START_TEXT int sym(const char *path, const char *arg0, ...) \
    {                                                                        \
        size_t n = COUNT_ARGS(arg0);                                         \
        char *argv[n + 1];                                                   \
        FILL_ARGS(arg0, argv, n);                                            \
        return exec_path(#sym, path, argv, rg_libc_environ());               \
    }

#define HOOK_EXECLP(sym)                                                     \
    RG_EXPORT RG_START_TEXT int sym(const char *file, const char *arg0, ...) \
    {                                                                        \
        size_t n = COUNT_ARGS(arg0);                                         \
        char *argv[n + 1];                                                   \
        FILL_ARGS(arg0, argv, n);                                            \
        return exec_file(#sym, file, argv, rg_libc_environ());               \
    }

#define HOOK_EXECLE(sym)                                                     \
    RG_EXPORT RG_START_TEXT int sym(const char *path, const char *arg0, ...) \
    {                                                                        \
        size_t n = COUNT_ARGS(arg0);                                         \
        char *argv[n + 1];                                                   \
        char *const *envp = FILL_ARGS(arg0, argv, n);                        \
        return exec_path(#sym, path, argv, envp);                            \
    }

/* posix_spawn runs path; posix_spawnp searches PATH for file, as glibc will. */
#define HOOK_SPAWN(sym)                                                                      \
    RG_EXPORT int sym(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,    \
                      const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) \
    {                                                                                        \
        int saved = errno;                                                                   \
        return spawn_result(WITH_SESSION_ENV(#sym, AT_FDCWD, path, 0, envp,                  \
                                             RG_REAL(sym)(pid, path, fa, attr, argv, env_)), \
                            saved);                                                          \
    }

#define HOOK_SPAWNP(sym)                                                                     \
    RG_EXPORT int sym(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,    \
                      const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) \
    {                                                                                        \
        int saved = errno;                                                                   \
        char found[PATH_MAX];                                                                \
        return spawn_result(WITH_SESSION_ENV(#sym, AT_FDCWD, SEARCHED(file, found), 0, envp, \
                                             RG_REAL(sym)(pid, file, fa, attr, argv, env_)), \
                            saved);                                                          \
    }

#undef RG_HOOKS_exec
#define RG_HOOKS_exec(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"