/* posix_spawn's file actions run in the child, through glibc's internal open
 * that no hook sees, so a write it would make is checked when it is queued. */
#include <spawn.h>

#include "preload/hook.h"

RG_EXPORT int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *fa, int fd,
                                               const char *path, int flags, mode_t mode)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (c) {
        struct rg_request req = {RG_OP_SPAWN_OPEN, "posix_spawn_file_actions_addopen", AT_FDCWD,
                                 path, flags, mode, 0};
        int r = rg_guard_check_path(c, &req);
        rg_leave();
        errno = saved;
        if (r < 0)
            return -r; /* this call returns its error rather than setting errno */
    }
    return RG_REAL(posix_spawn_file_actions_addopen)(fa, fd, path, flags, mode);
}
