/* posix_spawn's file actions run in the child, through glibc's internal open
 * that no hook sees, so a write it would make is checked when it is queued. */
#include <spawn.h>

#include "preload/hook.h"
/* 0, or the error (this call returns it rather than setting errno). */
static int check_addopen(const char *call, const char *path, int flags, mode_t mode)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (c) {
        struct rg_request req = {
            RG_OP_SPAWN_OPEN, call, AT_FDCWD, path, flags, mode, 0, 0, NULL, NULL};
        int r = rg_guard_check_path(c, &req);
        rg_leave();
        errno = saved;
        if (r < 0)
            return -r;
    }
    return 0;
}

#define HOOK_ADDOPEN(sym)                                                                  \
    RG_EXPORT int sym(posix_spawn_file_actions_t *fa, int fd, const char *path, int flags, \
                      mode_t mode)                                                         \
    {                                                                                      \
        int r = check_addopen(#sym, path, flags, mode);                                    \
        return r ? r : RG_REAL(sym)(fa, fd, path, flags, mode);                            \
    }

#undef RG_HOOKS_spawn
#define RG_HOOKS_spawn(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"