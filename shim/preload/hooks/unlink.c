/* unlink, unlinkat and remove. Removing a file and creating a new one in its
 * place is how install, cp --remove-destination, ln -f, tar and git replace
 * files, so the file's bytes are journaled first, and with --guard-unlink
 * removing an unread or stale file is refused like a write. With neither
 * (--no-journal) these hooks cost one flag test. */
#include "preload/hooks/unlink.h"
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard/journal/keep.h"
#include "preload/hook.h"
/* Is there no such name, in a process that has not set up yet? Then the
 * kernel's answer is ENOENT, as the journal's look would find once set up
 * (rg_guard_unlink), and there is nothing to keep or judge: `rm -f
 * conftest*`, as configure runs it around each check, need not attach
 * the table for names that are not there. Looked at as unlink walks it
 * (the last name not followed); only plain flags, which the kernel checks
 * before the name. Once set up, this would be a second look. */
static bool absent_unready(int dirfd, const char *path, int flags)
{
    struct stat st;
    return !rg_ready() && !(flags & ~AT_REMOVEDIR) &&
           rg_sys_fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == -ENOENT;
}

int rg_hook_unlink(const char *call, int dirfd, const char *path, int flags)
{
    int saved = errno;
    if (absent_unready(dirfd, path, flags))
        return (int)rg_result(-ENOENT, saved);
    struct rg_request req = {
        .op = RG_OP_UNLINK, .call = call, .dirfd = dirfd, .path = path, .flags = O_WRONLY};
    struct rg_ctx *c = rg_enter();
    long r;
    if (c && (c->policy & RG_POLICY_GUARD_UNLINK || rg_journal_on(c)))
        r = rg_guard_unlink(c, &req, flags);
    else
        r = rg_sys_unlinkat(dirfd, path, flags);
    if (c)
        rg_leave();
    return (int)rg_result(r, saved);
}

/* glibc's remove() calls its internal unlink, which no hook sees. */
static int remove_path(const char *call, const char *path)
{
    int saved = errno;
    int r = rg_hook_unlink(call, AT_FDCWD, path, 0);
    if (r == 0 || errno != EISDIR)
        return r;
    errno = saved;
    return (int)rg_result(rg_sys_unlinkat(AT_FDCWD, path, AT_REMOVEDIR), saved);
}

#define HOOK_UNLINK(sym) \
    RG_EXPORT int sym(const char *path) { return rg_hook_unlink(#sym, AT_FDCWD, path, 0); }

#define HOOK_UNLINKAT(sym)                                    \
    RG_EXPORT int sym(int dirfd, const char *path, int flags) \
    {                                                         \
        return rg_hook_unlink(#sym, dirfd, path, flags);      \
    }

#define HOOK_REMOVE(sym) \
    RG_EXPORT int sym(const char *path) { return remove_path(#sym, path); }

#undef RG_HOOKS_unlink
#define RG_HOOKS_unlink(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"