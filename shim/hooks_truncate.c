/* truncate by path. ftruncate needs no hook: its descriptor was checked when
 * it was opened for writing. */
#include <unistd.h>

#include "hook.h"

int rg_hook_truncate(const char *call, const char *path, off_t length)
{
    int saved = errno;
    struct rg_request req = {RG_OP_TRUNCATE, call, AT_FDCWD, path, O_WRONLY, 0, 0};
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(rg_sys_truncate(path, length), saved);
    long r = rg_guard_truncate(c, &req, length);
    rg_leave();
    return (int)rg_result(r, saved);
}

RG_EXPORT int truncate(const char *path, off_t length)
{
    return rg_hook_truncate("truncate", path, length);
}

RG_EXPORT int truncate64(const char *path, off64_t length)
{
    return rg_hook_truncate("truncate64", path, length);
}
