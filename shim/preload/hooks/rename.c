/* rename family: replacing an existing file is a write to it. */
#include "preload/hooks/rename.h"
#include <stdio.h>

#include "preload/hook.h"
int rg_hook_rename(const char *call, int olddir, const char *oldpath, int newdir,
                   const char *newpath, unsigned flags)
{
    int saved = errno;
    struct rg_request req = {RG_OP_RENAME, call, newdir, newpath, 0, 0, 0, 0, NULL};
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(rg_sys_renameat2(olddir, oldpath, newdir, newpath, flags), saved);
    long r = rg_guard_rename(c, &req, olddir, oldpath, flags);
    rg_leave();
    return (int)rg_result(r, saved);
}

#define HOOK_RENAME(sym)                                                      \
    RG_EXPORT int sym(const char *oldpath, const char *newpath)               \
    {                                                                         \
        return rg_hook_rename(#sym, AT_FDCWD, oldpath, AT_FDCWD, newpath, 0); \
    }

#define HOOK_RENAMEAT(sym)                                                              \
    RG_EXPORT int sym(int olddir, const char *oldpath, int newdir, const char *newpath) \
    {                                                                                   \
        return rg_hook_rename(#sym, olddir, oldpath, newdir, newpath, 0);               \
    }

#define HOOK_RENAMEAT2(sym)                                                             \
    RG_EXPORT int sym(int olddir, const char *oldpath, int newdir, const char *newpath, \
                      unsigned flags)                                                   \
    {                                                                                   \
        return rg_hook_rename(#sym, olddir, oldpath, newdir, newpath, flags);           \
    }

#undef RG_HOOKS_rename
#define RG_HOOKS_rename(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"