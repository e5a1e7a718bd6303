/* truncate by path, and ftruncate. A descriptor opened for writing was
 * checked at open; ftruncate is hooked only to explain the refusal on a
 * read-only stand-in that a touch-shaped open received (core/policy.c). */
#include "preload/hooks/truncate.h"
#include <unistd.h>

#include "preload/hook.h"
int rg_hook_truncate(const char *call, const char *path, off_t length)
{
    int saved = errno;
    struct rg_request req = {
        .op = RG_OP_TRUNCATE, .call = call, .dirfd = AT_FDCWD, .path = path, .flags = O_WRONLY};
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(rg_sys_truncate(path, length), saved);
    long r = rg_guard_truncate(c, &req, length);
    rg_leave();
    return (int)rg_result(r, saved);
}

static int ftruncate_fd(const char *call, int fd, off_t length)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(rg_sys_ftruncate(fd, length), saved);
    long r = rg_guard_ftruncate(c, call, fd, length);
    rg_leave();
    return (int)rg_result(r, saved);
}

#define HOOK_TRUNCATE(sym)                            \
    RG_EXPORT int sym(const char *path, off_t length) \
    {                                                 \
        return rg_hook_truncate(#sym, path, length);  \
    }

#define HOOK_TRUNCATE64(sym)                            \
    RG_EXPORT int sym(const char *path, off64_t length) \
    {                                                   \
        return rg_hook_truncate(#sym, path, length);    \
    }

#define HOOK_FTRUNCATE(sym) \
    RG_EXPORT int sym(int fd, off_t length) { return ftruncate_fd(#sym, fd, length); }

#define HOOK_FTRUNCATE64(sym) \
    RG_EXPORT int sym(int fd, off64_t length) { return ftruncate_fd(#sym, fd, length); }

#undef RG_HOOKS_truncate
#define RG_HOOKS_truncate(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"