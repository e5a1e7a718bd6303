/* posix_spawn's file actions run in the child, through glibc's internal open
 * that no hook sees, so a write it would make is checked when it is queued:
 * from the directory a chdir queued before it leads to (guard/spawndir.h),
 * else from the working directory. */
#include <spawn.h>

#include "preload/hook.h"
/* 0, or the error (this call returns it rather than setting errno). */
static int check_addopen(const char *call, const posix_spawn_file_actions_t *fa, const char *path,
                         int flags, mode_t mode)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (c) {
        char there[PATH_MAX];
        if (rg_spawn_dir_path(&c->spawn_dirs_lock, &c->spawn_dirs, fa, path, there))
            path = there;
        struct rg_request req = {.op = RG_OP_SPAWN_OPEN,
                                 .call = call,
                                 .dirfd = AT_FDCWD,
                                 .path = path,
                                 .flags = flags,
                                 .mode = mode};
        int r = rg_guard_check_path(c, &req);
        rg_leave();
        errno = saved;
        if (r < 0)
            return -r;
    }
    return 0;
}

/* Notes where fa's child goes (path, or fd's directory when path is NULL),
 * before the chdir is queued: 0, or the error, and a chdir that an open
 * queued after it could not be judged for is not queued. (The C library
 * fails to queue one only for want of memory.) */
static int note_chdir(const posix_spawn_file_actions_t *fa, const char *path, int fd)
{
    int saved = errno, r = 0;
    struct rg_ctx *c = rg_enter();
    if (c) {
        r = -rg_spawn_dir_set(&c->spawn_dirs_lock, &c->spawn_dirs, fa, path, fd);
        rg_leave();
    }
    errno = saved;
    return r;
}

static void forget_chdir(const posix_spawn_file_actions_t *fa)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (c) {
        rg_spawn_dir_drop(&c->spawn_dirs_lock, &c->spawn_dirs, fa);
        rg_leave();
    }
    errno = saved;
}

#define HOOK_ADDOPEN(sym)                                                                  \
    RG_EXPORT int sym(posix_spawn_file_actions_t *fa, int fd, const char *path, int flags, \
                      mode_t mode)                                                         \
    {                                                                                      \
        int r = check_addopen(#sym, fa, path, flags, mode);                                \
        return r ? r : RG_REAL(sym)(fa, fd, path, flags, mode);                            \
    }

#define HOOK_ADDCHDIR(sym)                                              \
    RG_EXPORT int sym(posix_spawn_file_actions_t *fa, const char *path) \
    {                                                                   \
        int r = note_chdir(fa, path, -1);                               \
        return r ? r : RG_REAL(sym)(fa, path);                          \
    }

#define HOOK_ADDFCHDIR(sym)                                   \
    RG_EXPORT int sym(posix_spawn_file_actions_t *fa, int fd) \
    {                                                         \
        int r = note_chdir(fa, NULL, fd);                     \
        return r ? r : RG_REAL(sym)(fa, fd);                  \
    }

#define HOOK_FA_RESET(sym)                            \
    RG_EXPORT int sym(posix_spawn_file_actions_t *fa) \
    {                                                 \
        forget_chdir(fa);                             \
        return RG_REAL(sym)(fa);                      \
    }

#undef RG_HOOKS_spawn
#define RG_HOOKS_spawn(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"
