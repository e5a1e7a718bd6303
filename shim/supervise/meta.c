/* chmod, chown and utimensat, made by the supervisor in the target's name:
 * each moves ctime, which counts as a change, so the session's own must
 * keep a file it knew known (guard/meta.h), in programs the library does
 * not see too. And under --strict setxattr and removexattr, which can take
 * the journal's permissions away (an ACL) as chmod can. The file is opened
 * once (O_PATH, no magic links but the target's own) and both the looks
 * and the change go through that descriptor, so they are about the same
 * inode. What is not a regular file, or cannot be resolved here, goes on
 * to the kernel as the target asked: there is nothing to restamp, and the
 * kernel gives the target its own answer. */
#include <errno.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/syscall.h"
#include "core/text.h"
#include "guard/calls.h"
#include "guard/meta.h"
#include "os/sys.h"
#include "supervise/supervise.h"
/* An O_PATH descriptor, in the supervisor, on the file the call names; or
 * -errno. *shown: the path as the target gave it. */
static int file_of(struct rg_sv_call *call, const struct rg_syscall *sc, const char **shown)
{
    /* Per handler thread, and off its stack for their size: no other sees them. */
    static _Thread_local char raw[PATH_MAX], self[PATH_MAX];
    *shown = "";
    if (!sc->path) /* fchmod, fchown, futimens: the file open on dirfd */
        return rg_sv_dirfd(&call->target, sc->dirfd, "");
    *shown = raw;
    int r = rg_sv_read_string(&call->target, sc->path, raw, sizeof raw);
    if (r < 0)
        return r;
    bool own = rg_sv_rewrite_self(raw, call->target.tgid, call->target.tid, self, sizeof self);
    const char *path = own ? self : raw;
    uint64_t resolve = RESOLVE_NO_MAGICLINKS;
    int dfd = own || rg_sv_tree_proc(path) ? rg_sv_cross(&path, &resolve)
                                           : rg_sv_dirfd(&call->target, sc->dirfd, path);
    if (dfd < 0 && dfd != AT_FDCWD)
        return dfd;
    if (!path[0] && (sc->flags & AT_EMPTY_PATH))
        return dfd;
    struct open_how how = {.flags = O_PATH | O_CLOEXEC |
                                    (sc->flags & AT_SYMLINK_NOFOLLOW ? O_NOFOLLOW : 0),
                           .resolve = resolve};
    int fd = rg_sys_openat2(dfd, path, &how, sizeof how);
    if (dfd >= 0)
        rg_sys_close(dfd);
    return fd;
}

/* The journal's and the log's modes and owners are as sealed as their
 * bytes: a tree that took its own write or search permission from the
 * journal would keep the next version from being kept, or undo from
 * reading one; from the log, the supervisor's next line. An ACL on the
 * table would keep readguard mark --session out. Named in the refusal as
 * the target gave it, or by its path where it gave a descriptor. 0 where
 * fd is none of them. */
static int sealed_refused(struct rg_sv_call *call, const struct rg_syscall *sc, int fd,
                          const char *shown, const struct stat *st)
{
    enum rg_sv_sealed what = rg_sv_sealed_fd(call->ctx, fd);
    if (!what && !rg_ctx_sealed(call->ctx, st->st_dev, st->st_ino))
        return 0;
    char where[PATH_MAX], link[RG_FD_LINK_MAX];
    rg_fd_link(link, fd);
    ssize_t n = readlink(link, where, sizeof where - 1);
    where[n > 0 ? n : 0] = '\0';
    /* Its path for the log, its name as given for stderr. */
    struct rg_request req = {.op = RG_OP_META,
                             .call = sc->name,
                             .dirfd = AT_FDCWD,
                             .path = where,
                             .shown = shown[0] ? shown : NULL};
    return what ? rg_sv_sealed_refuse(call, &req, st, what) : rg_ask_sealed(call->ctx, &req, st);
}

/* A call on a file the supervisor could not open (fd, -errno) or has no
 * restamp for. Under --strict it fails as the look did: passed on, the
 * kernel would resolve the path again, and a name missing at the look
 * could name the journal by then. Elsewhere the kernel answers. */
static void unresolved(struct rg_sv_call *call, int fd)
{
    if (call->ctx->sealed_ino && fd < 0)
        rg_sv_reply(call, fd);
    else
        rg_sv_continue(call);
}

void rg_sv_meta(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    struct stat st;
    struct timespec ts[2];
    const char *shown = "";
    int r = rg_sv_need_target(call);
    int fd = r < 0 ? r : file_of(call, sc, &shown);
    if (fd >= 0 && fstat(fd, &st) == 0 && (r = sealed_refused(call, sc, fd, shown, &st)) < 0) {
        rg_sys_close(fd);
        rg_sv_reply(call, r);
        return;
    }
    if (fd < 0 || fstat(fd, &st) != 0 || (!S_ISREG(st.st_mode) && !call->ctx->sealed_ino)) {
        if (fd >= 0)
            rg_sys_close(fd);
        unresolved(call, fd);
        return;
    }
    if (sc->times)
        r = rg_sv_read_mem(&call->target, sc->times, ts, sizeof ts);
    if (r == 0) {
        /* The descriptor's own /proc name reaches the inode it holds, for
         * every call; it is followed, so no flag of the target's applies. */
        char name[32];
        struct rg_syscall here = *sc;
        struct rg_meta_file f;
        struct rg_meta_call mc;
        snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
        here.flags = 0;
        rg_meta_of(&here, AT_FDCWD, name, sc->times ? ts : NULL, &f, &mc);
        r = rg_sv_still_valid(call) ? (int)rg_guard_meta_change(call->ctx, &f, &mc) : -ESRCH;
    }
    rg_sys_close(fd);
    rg_sv_reply(call, r);
}

static bool removes(long nr)
{
    return nr == SYS_removexattr || nr == SYS_lremovexattr || nr == SYS_fremovexattr;
}

/* The change, made through the descriptor's /proc name with the name and
 * value read from the target once: the file judged is the file changed,
 * whatever the tree renames meanwhile. Errors as the kernel's own. */
static long xattr_on(struct rg_sv_call *call, const struct rg_syscall *sc, int fd)
{
    /* Per handler thread, and off its stack for their size (64 KiB). */
    static _Thread_local char name[XATTR_NAME_MAX + 1], value[XATTR_SIZE_MAX];
    char path[32];
    int r = rg_sv_read_string(&call->target, sc->xname, name, sizeof name);
    if (r < 0)
        return r == -ENAMETOOLONG ? -ERANGE : r;
    if (!removes(sc->nr) && sc->xsize > sizeof value)
        return -E2BIG;
    if (!removes(sc->nr) && sc->xsize)
        r = rg_sv_read_mem(&call->target, sc->xvalue, value, sc->xsize);
    if (r < 0)
        return -EFAULT;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (!rg_sv_still_valid(call))
        return -ESRCH;
    return removes(sc->nr) ? rg_syscall6(SYS_removexattr, (long)path, (long)name, 0, 0, 0, 0)
                           : rg_syscall6(SYS_setxattr, (long)path, (long)name, (long)value,
                                         (long)sc->xsize, sc->xflags, 0);
}

/* Only a sealed journal needs the calls judged: elsewhere they go on. */
void rg_sv_xattr(struct rg_sv_call *call, const struct rg_syscall *sc)
{
    struct stat st;
    const char *shown = "";
    int r = call->ctx->sealed_ino ? rg_sv_need_target(call) : -EPERM;
    int fd = r < 0 ? r : file_of(call, sc, &shown);
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            rg_sys_close(fd);
        unresolved(call, fd);
        return;
    }
    r = sealed_refused(call, sc, fd, shown, &st);
    if (r == 0)
        r = (int)xattr_on(call, sc, fd);
    rg_sys_close(fd);
    rg_sv_reply(call, r);
}
