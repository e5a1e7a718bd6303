/* The environment an exec hook hands the new image when the program's
 * lacks the session's variables (core/envp.h): rebuilt on the hook's
 * stack, or, when larger, in a private mapping of the process's own, or
 * on the stack again where the memory may be a parent's (a vfork child). */
#ifndef RG_EXECENV_H
#define RG_EXECENV_H

#include <stddef.h>

#include "core/envp.h"

#define RG_ENV_SLOTS 256
#define RG_ENV_BUF 8192

/* Where a rebuilt envp lives: on the caller's stack, or mapped when the
 * environment is larger than that. */
struct rg_env_space {
    char *slots[RG_ENV_SLOTS];
    char buf[RG_ENV_BUF];
    void *map;
    size_t map_size;
};

/* The environment to exec with, rebuilt in sp because envp lacks something
 * (rg_envp_complete). NULL (errno ENOMEM) only when no copy can be made:
 * running the program outside the session is not the safe answer. When it
 * is larger than sp and the memory may be a parent's, NULL with *stack set
 * to the bytes the caller is to build it in on its own stack
 * (rg_envp_in). sp->map, when set, is the caller's to unmap. */
char *const *rg_session_envp(char *const *envp, struct rg_env_space *sp,
                             const struct rg_env_need *need, size_t *stack);

/* Unmaps sp->map, if rg_session_envp mapped one, leaving errno alone: it
 * runs after an exec that failed, whose error the caller returns. */
void rg_env_space_free(struct rg_env_space *sp);

/* Builds the environment in mem, of the size rg_session_envp gave; NULL
 * (errno E2BIG) when it does not fit. */
char *const *rg_envp_in(char *const *envp, const struct rg_env_need *need, void *mem, size_t size);

#endif
