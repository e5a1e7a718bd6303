/* What a --strict tree may not do to its view of paths. The supervisor
 * resolves a trapped call's path from the caller's cwd or descriptors, but
 * an absolute path from its own root, in its own mount namespace. In a new
 * mount namespace the tree could bind the root elsewhere and write a
 * guarded file through a name outside the roots, and after chroot an
 * absolute path would name another file than the one the supervisor
 * checks. So a --strict tree may not make a user or mount namespace, enter
 * another (setns), or chroot: the filter sends exactly those calls here,
 * and they are refused with EPERM and one line on the caller's stderr. */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guard/log.h"
#include "os/sys.h"
#include "supervise/supervise.h"
static const char *call_name(const struct seccomp_data *d)
{
    bool user = d->args[0] & CLONE_NEWUSER;
    switch (d->nr) {
    case SYS_setns: return "setns";
    case SYS_chroot: return "chroot";
    case SYS_clone: return user ? "clone(CLONE_NEWUSER)" : "clone(CLONE_NEWNS)";
    default: return user ? "unshare(CLONE_NEWUSER)" : "unshare(CLONE_NEWNS)";
    }
}

bool rg_sv_refuse_ns(struct rg_sv_call *call)
{
    const struct seccomp_data *d = &call->req->data;
    bool ns = (d->nr == SYS_unshare || d->nr == SYS_clone) && (d->args[0] & RG_SV_NS_FLAGS);
    if (!ns && d->nr != SYS_setns && d->nr != SYS_chroot)
        return false;
    char line[512];
    int n = snprintf(line, sizeof line,
                     "readguard: refused %s: under --strict no process may make a user or mount "
                     "namespace, enter another or chroot, where a path could name another file "
                     "than the one readguard checks.\n",
                     call_name(d));
    if (rg_sv_need_target(call) == 0 && n > 0) {
        ssize_t w = write(rg_log_err_fd(call->ctx), line, (size_t)n);
        (void)w;
    }
    rg_sv_reply(call, -EPERM);
    return true;
}
