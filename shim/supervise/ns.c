/* What a --strict tree may not do to its view of paths. The supervisor
 * resolves a trapped call's path from the caller's cwd or descriptors, but
 * an absolute path from its own root, in its own mount namespace. In a new
 * mount namespace the tree could bind the root elsewhere and write a
 * guarded file through a name outside the roots, and after chroot an
 * absolute path would name another file than the one the supervisor
 * checks. So a --strict tree may not make a user or mount namespace, enter
 * another (setns), or chroot; nor mount (root mounts in readguard's own
 * namespace), nor have the kernel write a file by name (acct, swapon): the
 * filter sends exactly those calls here, and they are refused with EPERM
 * and one line on the caller's stderr. */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/syscall.h"
#include "guard/log.h"
#include "os/sys.h"
#include "supervise/supervise.h"
/* The call's name, or NULL for one the filter sends here but this file
 * does not refuse (a clone or unshare making neither namespace). */
static const char *call_name(const struct seccomp_data *d)
{
    bool user = d->args[0] & CLONE_NEWUSER;
    if (d->nr == SYS_clone || d->nr == SYS_unshare) {
        if (!(d->args[0] & RG_SV_NS_FLAGS))
            return NULL;
        if (d->nr == SYS_clone)
            return user ? "clone(CLONE_NEWUSER)" : "clone(CLONE_NEWNS)";
        return user ? "unshare(CLONE_NEWUSER)" : "unshare(CLONE_NEWNS)";
    }
#define RG_REFUSED(name)     \
    if (d->nr == SYS_##name) \
        return #name;
    RG_SV_REFUSED_CALLS(RG_REFUSED)
#undef RG_REFUSED
    return NULL;
}

static const char *why(const struct seccomp_data *d)
{
    if (d->nr == SYS_acct || d->nr == SYS_swapon)
        return "under --strict no process may have the kernel write a file by name, unseen";
    if (d->nr == SYS_setns || d->nr == SYS_chroot || d->nr == SYS_clone || d->nr == SYS_unshare)
        return "under --strict no process may make a user or mount namespace, enter another or "
               "chroot, where a path could name another file than the one readguard checks";
    return "under --strict no process may mount or unmount, where a path could name another file "
           "than the one readguard checks";
}

bool rg_sv_refuse_ns(struct rg_sv_call *call)
{
    const struct seccomp_data *d = &call->req->data;
    const char *name = call_name(d);
    if (!name)
        return false;
    char line[512];
    int n = snprintf(line, sizeof line, "readguard: refused %s: %s.\n", name, why(d));
    if (rg_sv_need_target(call) == 0 && n > 0) {
        ssize_t w = write(rg_log_err_fd(call->ctx), line, (size_t)n);
        (void)w;
    }
    rg_sv_reply(call, -EPERM);
    return true;
}
