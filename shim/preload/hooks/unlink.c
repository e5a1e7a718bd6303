/* unlink, unlinkat and remove. Removing a file and creating a new one in its
 * place is how install, cp --remove-destination, ln -f, tar and git replace
 * files, so with --guard-unlink removing an unread or stale file is refused
 * like a write. Without it these hooks cost one flag test. */
#include <stdio.h>
#include <unistd.h>

#include "preload/hook.h"

static int unlink_at(const char *call, int dirfd, const char *path, int flags)
{
    int saved = errno;
    struct rg_request req = {RG_OP_UNLINK, call, dirfd, path, O_WRONLY, 0, 0};
    struct rg_ctx *c = rg_enter();
    long r;
    if (c && (c->policy & RG_POLICY_GUARD_UNLINK))
        r = rg_guard_unlink(c, &req, flags);
    else
        r = rg_sys_unlinkat(dirfd, path, flags);
    if (c)
        rg_leave();
    return (int)rg_result(r, saved);
}

RG_EXPORT int unlink(const char *path)
{
    return unlink_at("unlink", AT_FDCWD, path, 0);
}

RG_EXPORT int unlinkat(int dirfd, const char *path, int flags)
{
    return unlink_at("unlinkat", dirfd, path, flags);
}

/* glibc's remove() calls its internal unlink, which no hook sees. */
RG_EXPORT int remove(const char *path)
{
    int saved = errno;
    int r = unlink_at("remove", AT_FDCWD, path, 0);
    if (r == 0 || errno != EISDIR)
        return r;
    errno = saved;
    return (int)rg_result(rg_sys_unlinkat(AT_FDCWD, path, AT_REMOVEDIR), saved);
}
