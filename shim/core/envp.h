/* The environment a session's exec must pass on. Programs scrub their
 * children's environment (env -i, subprocess env={}, Rust env_clear); the
 * exec hooks rebuild it rather than touch environ, which a vfork child
 * shares with its parent. Pure: no allocation, no libc state. */
#ifndef RG_ENVP_H
#define RG_ENVP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/progkind.h"
/* The libc whose loader will read LD_PRELOAD. Each has its own build of the
 * shim; musl's lives in a directory named musl/ beside glibc's, so its file
 * name is libreadguard.so too. */
enum rg_libc { RG_LIBC_GLIBC = 0, RG_LIBC_MUSL = 1 };

/* What every process of the session needs in its environment. */
struct rg_env_need {
    const char *preload; /* the shim's LD_PRELOAD entry, or NULL: add none */
    const char *session; /* READGUARD_SESSION, or NULL: leave it */
    /* The loader of the program exec'd: entries naming a shim it cannot load
     * go (glibc's dies on musl's shim and musl's on glibc's), except those
     * it passes over: musl cannot open a path with "$LIB" in it, and goes on,
     * so that entry survives a musl process for its glibc descendants. */
    enum rg_libc loader;
    /* READGUARD_SESSION_FILE (core/tablebind.h), or NULL: leave it. It goes
     * where the session goes: a child whose environment was emptied would
     * otherwise join whatever table is at the session's path. */
    const char *binding;
};

/* The most variables rg_envp_build adds to envp's. */
#define RG_ENV_ADDS 4

/* The variables the shim reads from an environment, each the first copy (as
 * getenv finds it), or NULL. One pass over envp, with no libc calls: the
 * exec hook of every command and the start of every process run it. */
struct rg_env_vars {
    const char *preload;    /* LD_PRELOAD */
    const char *session;    /* READGUARD_SESSION */
    const char *uring;      /* UV_USE_IO_URING */
    const char *owner;      /* READGUARD_OWNER */
    const char *trampoline; /* READGUARD_TRAMPOLINE */
    const char *binding;    /* READGUARD_SESSION_FILE */
};
struct rg_env_vars rg_env_vars(char *const *envp);

/* Does envp already carry the shim, no shim the loader cannot load, the
 * session, its binding and UV_USE_IO_URING=0? */
bool rg_envp_complete(char *const *envp, const struct rg_env_need *need);

/* Writes into out (outcap pointers) envp with what is missing added: the
 * shim prepended to LD_PRELOAD and entries the loader cannot load taken out
 * of it (an LD_PRELOAD left empty goes), READGUARD_SESSION if unset or empty, the
 * binding if unset or empty or the session was added, and UV_USE_IO_URING=0
 * in place of any other value. New strings go into buf. Returns the number
 * of variables (out[n] is NULL), or -1 if out (which needs room for
 * RG_ENV_ADDS more than envp and the NULL) or buf is too small. A NULL
 * envp is an empty one. */
long rg_envp_build(char *const *envp, const struct rg_env_need *need, char **out, size_t outcap,
                   char *buf, size_t bufcap);

/* Which build an LD_PRELOAD entry naming the shim is. */
enum rg_libc rg_shim_libc(const char *entry, size_t len);

/* Fills need->preload and need->loader for a program of this kind, from the
 * session's glibc and musl entries (NULL: that build is not there, or the
 * session ended) and the build doing the exec (own). Returns whether the
 * program will load a shim: false names it unguarded (static, Go, setuid,
 * another loader, a libc with no shim of its own). */
bool rg_env_choose(struct rg_env_need *need, enum rg_prog kind, bool native, enum rg_libc own,
                   const char *glibc, const char *musl);

/* Is the entry of a ':'- or ' '-separated LD_PRELOAD list naming the shim
 * there? Any entry whose file name is libreadguard.so counts, whatever its
 * directory ($LIB included). */
bool rg_preload_has_shim(const char *list);

#endif
