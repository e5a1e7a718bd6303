/* system() and popen() start /bin/sh through glibc's internal posix_spawn,
 * with environ, where no exec hook sees it. When environ lacks the session
 * (core/envp.h), the command is wrapped: the shell they start only exports what
 * was missing and execs a second, guarded shell that runs the command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/envp.h"
#include "core/tablebind.h"
#include "os/libcvar.h"
#include "preload/hook.h"

/* Characters, not pointers: no relocations for ld.so at load. */
static const char KEYS[][24] = {
    "LD_PRELOAD=", "READGUARD_SESSION=", "READGUARD_SESSION_FILE=", "UV_USE_IO_URING="};

/* Appends s to out in single quotes. */
static char *put_quoted(char *out, const char *s)
{
    *out++ = '\'';
    for (; *s; s++) {
        if (*s == '\'') {
            out = stpcpy(out, "'\\''");
        } else {
            *out++ = *s;
        }
    }
    *out++ = '\'';
    return out;
}

static size_t quoted_len(const char *s)
{
    size_t n = 2;
    for (; *s; s++)
        n += *s == '\'' ? 4 : 1;
    return n;
}

/* The wrapped command (malloc'd), or NULL when environ lacks nothing or
 * memory is short (then the command runs as given). */
static char *wrap(const char *cmd)
{
    struct rg_env_need need;
    rg_exec_need(rg_ctx_exec_env(), &need);
    if (!cmd)
        return NULL;
    char **cur = rg_libc_environ();
    if (rg_envp_complete(cur, &need))
        return NULL;
    size_t n = 0;
    while (cur && cur[n])
        n++;
    size_t bufsz = 3 * PATH_MAX + 64 + sizeof RG_ENV_SESSION_FILE + (size_t)RG_TABLEBIND_MAX;
    size_t slots = n + RG_ENV_ADDS + 1;
    char **env = malloc(slots * sizeof *env + bufsz), *w = NULL;
    if (!env || rg_envp_build(cur, &need, env, slots, (char *)(env + slots), bufsz) < 0)
        goto out;
    size_t len = sizeof "export ; exec /bin/sh -c " + quoted_len(cmd);
    for (size_t i = 0; env[i]; i++)
        len += quoted_len(env[i]) + 1;
    if (!(w = malloc(len)))
        goto out;
    char *p = stpcpy(w, "export");
    for (size_t i = 0; env[i]; i++)
        for (size_t k = 0; k < sizeof KEYS / sizeof *KEYS; k++)
            if (strncmp(env[i], KEYS[k], strlen(KEYS[k])) == 0) {
                *p++ = ' ';
                p = put_quoted(p, env[i]);
            }
    p = stpcpy(p, "; exec /bin/sh -c ");
    *put_quoted(p, cmd) = '\0';
out:
    free(env);
    return w;
}

/* Runs EXPR, a call of the real function, with the command wrapped as cmd_
 * when environ lacks the session. */
#define WITH_WRAPPED(cmd, expr)             \
    ({                                      \
        int saved_ = errno;                 \
        rg_note_child();                    \
        char *w_ = wrap(cmd);               \
        const char *cmd_ = w_ ? w_ : (cmd); \
        errno = saved_;                     \
        __typeof__(expr) r_ = (expr);       \
        saved_ = errno;                     \
        free(w_);                           \
        errno = saved_;                     \
        r_;                                 \
    })

#define HOOK_SYSTEM(sym) \
    RG_EXPORT int sym(const char *cmd) { return WITH_WRAPPED(cmd, RG_REAL(sym)(cmd_)); }

#define HOOK_POPEN(sym)                                     \
    RG_EXPORT FILE *sym(const char *cmd, const char *mode)  \
    {                                                       \
        return WITH_WRAPPED(cmd, RG_REAL(sym)(cmd_, mode)); \
    }

#undef RG_HOOKS_shell
#define RG_HOOKS_shell(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"