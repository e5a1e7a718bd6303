/* What a --strict tree may not do to processes outside it. The tree runs as
 * the user, and a process of the user that is not in the tree (the agent
 * that started the run, an editor, a shell) writes files unseen: a tree
 * that could attach to it with ptrace, write its memory (process_vm_writev,
 * /proc/PID/mem) or take its descriptors (pidfd_getfd) would write through
 * it. So the filter sends a --strict tree's PTRACE_ATTACH, PTRACE_SEIZE,
 * process_vm_writev and prlimit of another process here, let run only on a
 * process of the tree (a debugger of the tree's own programs), and fails
 * pidfd_getfd outright: its target
 * is a descriptor of the caller's, which another thread can swap between a
 * look and the call. A write-open of a /proc file of a process outside the
 * tree is refused where opens are judged (open.c). A limit set on a process
 * outside (readguard's own file size limit) makes it fail its writes: the
 * journal then keeps nothing and the log takes no line. */
#include <errno.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guard/log.h"
#include "os/lineage.h"
#include "supervise/supervise.h"
bool rg_sv_in_tree(int32_t pid)
{
    int32_t me = (int32_t)getpid();
    return pid > 0 && pid != me && rg_descends(pid, me);
}

void rg_sv_say_outside(struct rg_sv_call *call, const char *what)
{
    char line[512];
    int n = snprintf(line, sizeof line,
                     "readguard: refused %s: under --strict no process may reach into a process "
                     "outside the tree, which writes files unseen.\n",
                     what);
    if (rg_sv_need_target(call) == 0 && n > 0) {
        ssize_t w = write(rg_log_err_fd(call->ctx), line, (size_t)n);
        (void)w;
    }
}

bool rg_sv_reach(struct rg_sv_call *call)
{
    const struct seccomp_data *d = &call->req->data;
    const char *what;
    uint64_t pid;
    if (d->nr == SYS_ptrace) {
        what =
            (uint32_t)d->args[0] == PTRACE_SEIZE ? "ptrace(PTRACE_SEIZE)" : "ptrace(PTRACE_ATTACH)";
        pid = d->args[1];
    } else if (d->nr == SYS_process_vm_writev) {
        what = "process_vm_writev";
        pid = d->args[0];
    } else if (d->nr == SYS_prlimit64) {
        what = "prlimit";
        pid = d->args[0];
        if (!d->args[2]) { /* no new limit: a look */
            rg_sv_continue(call);
            return true;
        }
    } else {
        return false;
    }
    /* The pid is in the registers, which the kernel reads again: the
     * process checked is the one reached, unless it is reaped and its pid
     * taken in between (see readguard(1), LIMITATIONS). */
    if (pid <= INT32_MAX && rg_sv_in_tree((int32_t)pid)) {
        rg_sv_continue(call);
        return true;
    }
    rg_sv_say_outside(call, what);
    rg_sv_reply(call, -EPERM);
    return true;
}
