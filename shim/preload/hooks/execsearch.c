/* glibc's PATH search for execvp, execvpe and execlp, redone. glibc's own
 * cannot serve: reached by a dlsym, it waited forever in a child forked
 * while another thread held the loader's lock, and it hands every name it
 * tries the caller's envp, where each program may need an environment of
 * its own to stay in the session (one of the other libc loads the other
 * shim). Each name is tried by the system call, shell fallback and all, as
 * glibc tries it. */
#include "preload/hooks/exec.h"
#ifdef __GLIBC__
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/envp.h"
#include "core/pathsearch.h"
#include "os/exec_target.h"
#include "preload/hooks/execenv.h"
/* A PATH search in progress: the hook, the caller's envp, and the
 * environment built for the last name tried, which most names need again
 * (a search tries most of them in vain, and building is a pass over envp). */
struct search {
    const char *name;
    char *const *envp;
    struct rg_env_need base; /* rg_exec_need's, asked once, when needed */
    bool asked;
    struct rg_env_need need; /* what env was built for */
    char *const *env;        /* NULL until built */
    struct rg_env_space sp;
    char other[PATH_MAX];
};

static bool same_need(const struct rg_env_need *a, const struct rg_env_need *b)
{
    return a->preload == b->preload && a->session == b->session && a->binding == b->binding &&
           a->loader == b->loader;
}

static void search_exec(struct search *s, const char *path, char *const argv[])
{
    struct rg_env_need need;
    struct rg_target t;
    rg_exec_target(rg_ctx_exec_cache(), AT_FDCWD, path, 0, &t);
    if (rg_exec_settled(rg_ctx_exec_env(), &t, s->envp, &need)) {
        rg_sys_execve(path, argv, s->envp);
        return;
    }
    if (!s->asked) {
        rg_exec_need(rg_ctx_exec_env(), &s->base);
        s->asked = true;
    }
    need = s->base;
    rg_exec_choose(rg_ctx_exec_env(), rg_ready(), s->name, path, &t, &need, s->other);
    if (!s->env || !same_need(&need, &s->need)) {
        size_t big = 0;
        rg_env_space_free(&s->sp);
        s->need = need;
        s->env = rg_envp_complete(s->envp, &s->need)
                     ? s->envp
                     : rg_session_envp(s->envp, &s->sp, &s->need, &big);
        /* On this frame's stack, for this name only: built again for the next. */
        if (big) {
            char *const *env = rg_envp_in(s->envp, &s->need, __builtin_alloca(big), big);
            if (env)
                rg_sys_execve(path, argv, env);
            return;
        }
        if (!s->env)
            return;
    }
    rg_sys_execve(path, argv, s->env);
}

/* One name a search tries, and, for a file with no #! line, glibc's
 * second try: the shell, given the file. */
static void search_try(struct search *s, const char *path, char *const argv[])
{
    search_exec(s, path, argv);
    if (errno != ENOEXEC)
        return;
    size_t n = rg_script_slots(argv);
    if (!n) {
        errno = E2BIG;
        return;
    }
    char *sh[n];
    rg_script_argv(path, argv, sh);
    search_exec(s, RG_SCRIPT_SHELL, sh);
}

/* Along PATH, the caller's environ's rather than envp's, as in glibc. */
static void search_path(struct search *s, const char *file, char *const argv[])
{
    struct rg_search walk;
    int err = rg_search_start(&walk, getenv("PATH"), file);
    if (err) {
        errno = err;
        return;
    }
    char buf[RG_SEARCH_BUF];
    bool eacces = false;
    while (rg_search_next(&walk, buf)) {
        search_try(s, buf, argv);
        if (!rg_search_goes_on(errno))
            return;
        eacces |= errno == EACCES;
    }
    if (eacces)
        errno = EACCES;
}

int rg_exec_path_search(const char *hook, const char *file, char *const argv[], char *const envp[])
{
    if (!*file)
        return errno = ENOENT, -1;
    struct search s; /* not zeroed: its buffers are 12 KiB */
    s.name = hook;
    s.envp = envp;
    s.env = NULL;
    s.sp.map = NULL;
    s.asked = false;
    if (strchr(file, '/'))
        search_try(&s, file, argv);
    else
        search_path(&s, file, argv);
    rg_env_space_free(&s.sp);
    return -1;
}
#endif
