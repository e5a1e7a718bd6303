/* rename family: replacing an existing file is a write to it. */
#include "preload/hooks/rename.h"
#include <stdio.h>

#include "guard/anchor.h"
#include "preload/hook.h"
/* The names are anchored to their directories (guard/anchor.h), so the
 * rename replaces the file that was checked even if a sibling swaps
 * directories meanwhile; two names in one directory (an atomic save's
 * "f.tmp" to "f") share its one descriptor. A NULL name is left to the
 * kernel (EFAULT). */
static long anchored_rename(struct rg_ctx *c, const char *call, int olddir, const char *oldpath,
                            int newdir, const char *newpath, unsigned flags)
{
    if (!rg_rename_flags_valid(flags))
        return -EINVAL;
    struct rg_anchor from, to;
    long r = oldpath && newpath ? rg_anchor_at(&from, olddir, oldpath, 0) : -EFAULT;
    if (r < 0)
        return oldpath && newpath ? r : rg_sys_renameat2(olddir, oldpath, newdir, newpath, flags);
    r = rg_anchor_beside(&to, &from, newdir, newpath, 0);
    if (r == 0) {
        struct rg_request req = {
            .op = RG_OP_RENAME, .call = call, .dirfd = to.dirfd, .path = to.name, .shown = newpath};
        r = rg_guard_rename(c, &req, from.dirfd, from.name, flags);
        rg_anchor_drop(&to);
    }
    rg_anchor_drop(&from);
    return r;
}

int rg_hook_rename(const char *call, int olddir, const char *oldpath, int newdir,
                   const char *newpath, unsigned flags)
{
    int saved = errno;
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(rg_sys_renameat2(olddir, oldpath, newdir, newpath, flags), saved);
    long r = anchored_rename(c, call, olddir, oldpath, newdir, newpath, flags);
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