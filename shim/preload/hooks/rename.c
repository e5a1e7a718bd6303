/* rename family: replacing an existing file is a write to it. */
#include "preload/hooks/rename.h"

#include <stdio.h>

#include "preload/hook.h"

int rg_hook_rename(const char *call, int olddir, const char *oldpath, int newdir,
                       const char *newpath, unsigned flags)
{
    int saved = errno;
    struct rg_request req = {RG_OP_RENAME, call, newdir, newpath, 0, 0, 0};
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(rg_sys_renameat2(olddir, oldpath, newdir, newpath, flags), saved);
    long r = rg_guard_rename(c, &req, olddir, oldpath, flags);
    rg_leave();
    return (int)rg_result(r, saved);
}

RG_EXPORT int rename(const char *oldpath, const char *newpath)
{
    return rg_hook_rename("rename", AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}

RG_EXPORT int renameat(int olddir, const char *oldpath, int newdir, const char *newpath)
{
    return rg_hook_rename("renameat", olddir, oldpath, newdir, newpath, 0);
}

RG_EXPORT int renameat2(int olddir, const char *oldpath, int newdir, const char *newpath,
                        unsigned flags)
{
    return rg_hook_rename("renameat2", olddir, oldpath, newdir, newpath, flags);
}
