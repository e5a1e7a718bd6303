/* The environment a session's exec must pass on. Programs scrub their
 * children's environment (env -i, subprocess env={}, Rust env_clear); the
 * exec hooks rebuild it rather than touch environ, which a vfork child
 * shares with its parent. Pure: no allocation, no libc state. */
#ifndef RG_ENVP_H
#define RG_ENVP_H

#include <stdbool.h>
#include <stddef.h>

/* What every process of the session needs in its environment. */
struct rg_env_need {
    const char *preload; /* the shim's LD_PRELOAD entry, or NULL: leave LD_PRELOAD */
    const char *session; /* READGUARD_SESSION, or NULL: leave it */
};

/* Does envp already carry the shim, the session and UV_USE_IO_URING=0? */
bool rg_envp_complete(char *const *envp, const struct rg_env_need *need);

/* Writes into out (outcap pointers) envp with what is missing added: the
 * shim prepended to LD_PRELOAD, READGUARD_SESSION if unset or empty, and
 * UV_USE_IO_URING=0 in place of any other value. New strings go into buf.
 * Returns the number of variables (out[n] is NULL), or -1 if out or buf is
 * too small. A NULL envp is an empty one. */
long rg_envp_build(char *const *envp, const struct rg_env_need *need, char **out, size_t outcap,
                   char *buf, size_t bufcap);

/* Is the entry of a ':'- or ' '-separated LD_PRELOAD list naming the shim
 * there? Any entry whose file name is libreadguard.so counts, whatever its
 * directory ($LIB included). */
bool rg_preload_has_shim(const char *list);

#endif
