/* chmod, chown and link under each of their names: each moves the file's
 * ctime, which counts as a change, so the session's own must keep a file it
 * knows known (guard/meta.h). Each is decoded into the *at system call that
 * takes the same arguments, which every architecture has. */
#include "preload/hooks/meta.h"
#include <sys/stat.h>
#include <unistd.h>

#include "core/syscall.h"
#include "guard/calls.h"
#include "guard/meta.h"
#include "preload/hook.h"
#include "preload/hooks/meta.h"

int rg_hook_meta_call(const struct rg_meta_file *f, const struct rg_meta_call *call)
{
    const long *a = call->args;
    struct rg_ctx *c;
    /* The raw call leaves errno alone: nothing to save. */
    if (!f->path && (c = rg_ready()) && rg_meta_by_own_writer(c, f->dirfd))
        return (int)rg_result_raw(rg_syscall6(call->nr, a[0], a[1], a[2], a[3], a[4], a[5]));
    int saved = errno;
    c = rg_enter();
    if (!c)
        return (int)rg_result(rg_syscall6(call->nr, a[0], a[1], a[2], a[3], a[4], a[5]), saved);
    long r = rg_guard_meta_change(c, f, call);
    rg_leave();
    return (int)rg_result(r, saved);
}

static int chmod_at(int dirfd, const char *path, mode_t mode, int flags)
{
    struct rg_meta_file f = {dirfd, path, flags};
    struct rg_meta_call call = {SYS_fchmodat, {dirfd, (long)path, (long)mode}, false};
    if (!flags)
        return rg_hook_meta_call(&f, &call);
    call.nr = SYS_fchmodat2;
    call.args[3] = flags;
    int saved = errno, r = rg_hook_meta_call(&f, &call);
    if (r == 0 || errno != ENOSYS)
        return r;
    /* An older kernel: glibc has its own way for a flag the system call
     * lacks. The file is then no longer known to be as the session knew it,
     * which can only refuse a later write, never allow one. */
    errno = saved;
    return RG_REAL(fchmodat)(dirfd, path, mode, flags);
}

static int chown_at(int dirfd, const char *path, uid_t uid, gid_t gid, int flags)
{
    struct rg_meta_file f = {dirfd, path, flags};
    struct rg_meta_call call = {
        SYS_fchownat, {dirfd, (long)path, (long)(int)uid, (long)(int)gid, flags}, false};
    return rg_hook_meta_call(&f, &call);
}

/* A new name outside guarded scope is a write to the file (guard/names.h);
 * the link itself is a metadata change like the others. */
int rg_hook_link(const char *call, int olddir, const char *oldpath, int newdir, const char *newpath,
                 int flags)
{
    int saved = errno;
    struct rg_request req = {.op = RG_OP_LINK,
                             .call = call,
                             .dirfd = olddir,
                             .path = oldpath,
                             .to_dirfd = newdir,
                             .to_path = newpath};
    struct rg_ctx *c = rg_enter();
    if (!c)
        return (int)rg_result(
            rg_syscall6(SYS_linkat, olddir, (long)oldpath, newdir, (long)newpath, flags, 0), saved);
    long r = rg_guard_link(c, &req, flags);
    rg_leave();
    return (int)rg_result(r, saved);
}

long rg_hook_meta(const struct rg_syscall *sc)
{
    struct rg_meta_file f;
    struct rg_meta_call call;
    rg_meta_of(sc, sc->dirfd, (const char *)sc->path, (const void *)sc->times, &f, &call);
    return rg_hook_meta_call(&f, &call);
}

#define HOOK_CHMOD(sym) \
    RG_EXPORT int sym(const char *path, mode_t mode) { return chmod_at(AT_FDCWD, path, mode, 0); }

#define HOOK_LCHMOD(sym)                                            \
    RG_EXPORT int sym(const char *path, mode_t mode)                \
    {                                                               \
        return chmod_at(AT_FDCWD, path, mode, AT_SYMLINK_NOFOLLOW); \
    }

#define HOOK_FCHMOD(sym)                                                  \
    RG_EXPORT int sym(int fd, mode_t mode)                                \
    {                                                                     \
        struct rg_meta_file f = {fd, NULL, 0};                            \
        struct rg_meta_call call = {SYS_fchmod, {fd, (long)mode}, false}; \
        return rg_hook_meta_call(&f, &call);                              \
    }

#define HOOK_FCHMODAT(sym)                                                 \
    RG_EXPORT int sym(int dirfd, const char *path, mode_t mode, int flags) \
    {                                                                      \
        return chmod_at(dirfd, path, mode, flags);                         \
    }

#define HOOK_CHOWN(sym)                                       \
    RG_EXPORT int sym(const char *path, uid_t uid, gid_t gid) \
    {                                                         \
        return chown_at(AT_FDCWD, path, uid, gid, 0);         \
    }

#define HOOK_LCHOWN(sym)                                                \
    RG_EXPORT int sym(const char *path, uid_t uid, gid_t gid)           \
    {                                                                   \
        return chown_at(AT_FDCWD, path, uid, gid, AT_SYMLINK_NOFOLLOW); \
    }

#define HOOK_FCHOWN(sym)                                                                      \
    RG_EXPORT int sym(int fd, uid_t uid, gid_t gid)                                           \
    {                                                                                         \
        struct rg_meta_file f = {fd, NULL, 0};                                                \
        struct rg_meta_call call = {SYS_fchown, {fd, (long)(int)uid, (long)(int)gid}, false}; \
        return rg_hook_meta_call(&f, &call);                                                  \
    }

#define HOOK_FCHOWNAT(sym)                                                          \
    RG_EXPORT int sym(int dirfd, const char *path, uid_t uid, gid_t gid, int flags) \
    {                                                                               \
        return chown_at(dirfd, path, uid, gid, flags);                              \
    }

#define HOOK_LINK(sym)                                                      \
    RG_EXPORT int sym(const char *oldpath, const char *newpath)             \
    {                                                                       \
        return rg_hook_link(#sym, AT_FDCWD, oldpath, AT_FDCWD, newpath, 0); \
    }

#define HOOK_LINKAT(sym)                                                                    \
    RG_EXPORT int sym(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, \
                      int flags)                                                            \
    {                                                                                       \
        return rg_hook_link(#sym, olddirfd, oldpath, newdirfd, newpath, flags);             \
    }

#undef RG_HOOKS_meta
#define RG_HOOKS_meta(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"
