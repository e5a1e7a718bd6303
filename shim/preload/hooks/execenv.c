#include "preload/hooks/execenv.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

#include "os/sys.h"
#include "preload/context.h"
/* Is this process's memory its own, as far as the shim knows (guard/ctx.h's
 * map_pid)? A vfork child's is its parent's, where what it maps outlives
 * its exec: a leak in the parent for each child. Not set up, or a forked
 * child that has not claimed it yet, counts as shared. */
static bool memory_own(void)
{
    struct rg_ctx *c = rg_ready();
    return c && atomic_load_explicit(&c->map_pid, memory_order_relaxed) == rg_sys_getpid();
}

/* The bytes a rebuilt envp may take beyond rg_env_space: its slots, its
 * strings, and room for what the session adds. */
static size_t env_bytes(char *const *envp, size_t *slots)
{
    size_t n = 0, bytes = 3 * (size_t)RG_ENV_BUF;
    while (envp && envp[n])
        bytes += strlen(envp[n++]) + 1;
    *slots = n + RG_ENV_ADDS + 1;
    return *slots * sizeof(char *) + bytes;
}

char *const *rg_envp_in(char *const *envp, const struct rg_env_need *need, void *mem, size_t size)
{
    size_t slots;
    env_bytes(envp, &slots);
    char **out = mem;
    if (rg_envp_build(envp, need, out, slots, (char *)(out + slots),
                      size - slots * sizeof(char *)) < 0) {
        errno = E2BIG;
        return NULL;
    }
    return out;
}

char *const *rg_session_envp(char *const *envp, struct rg_env_space *sp,
                             const struct rg_env_need *need, size_t *stack)
{
    sp->map = NULL;
    *stack = 0;
    if (rg_envp_build(envp, need, sp->slots, RG_ENV_SLOTS, sp->buf, RG_ENV_BUF) >= 0)
        return sp->slots;
    size_t slots, size = env_bytes(envp, &slots);
    if (!memory_own())
        return *stack = size, NULL;
    sp->map_size = size;
    sp->map = mmap(NULL, sp->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sp->map == MAP_FAILED) {
        sp->map = NULL;
        errno = ENOMEM;
        return NULL;
    }
    char *const *out = rg_envp_in(envp, need, sp->map, size);
    if (!out) {
        munmap(sp->map, sp->map_size);
        sp->map = NULL;
    }
    return out;
}

void rg_env_space_free(struct rg_env_space *sp)
{
    if (!sp->map)
        return;
    int saved = errno;
    munmap(sp->map, sp->map_size);
    errno = saved;
    sp->map = NULL;
}
