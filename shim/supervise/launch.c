/* Starting a command under the filter. The child installs the filter on
 * itself (it must: a filter applies to the calling thread and what it
 * starts) and hands the listener to readguard over a socket before it execs
 * the command, so nothing the command runs is ever unsupervised. The child
 * keeps no copy: a tree that held its own listener could answer itself. */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "supervise/supervise.h"
static long seccomp_filter(unsigned long flags, struct sock_fprog *prog)
{
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog);
}

/* One message: one byte and the descriptor, or the reason it failed. */
static void send_result(int sock, int fd, const char *why)
{
    char buf[CMSG_SPACE(sizeof(int))] = {0};
    struct iovec iov = {(void *)(why ? why : "K"), why ? strlen(why) + 1 : 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        m.msg_control = buf;
        m.msg_controllen = sizeof buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    while (sendmsg(sock, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

/* Tells a kernel that is too old apart from one that forbids seccomp; why
 * holds the message when it is not a constant. */
static const char *why_refused(int err, struct sock_fprog *prog, char why[256])
{
    if (err != EINVAL) {
        snprintf(why, 256, "cannot install the seccomp filter: %s%s", strerror(err),
                 err == EPERM ? " (a supervised session cannot start another inside it)" : "");
        return why;
    }
    /* The filter would be installed twice on success, but this process
     * exits right after, without running anything. */
    if (seccomp_filter(SECCOMP_FILTER_FLAG_NEW_LISTENER, prog) >= 0)
        return "this kernel lacks SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV; supervised mode "
               "needs Linux 5.19 or later";
    return "this kernel lacks seccomp user notification; supervised mode needs Linux 5.19 or "
           "later";
}

int rg_sv_child_install(int sock, enum rg_sv_level level)
{
    struct sock_filter f[RG_SV_FILTER_MAX];
    struct sock_fprog prog = {(unsigned short)rg_sv_filter_build(f, level), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        send_result(sock, -1, "cannot set no_new_privs, which a seccomp filter needs");
        return -1;
    }
    long fd = seccomp_filter(
        SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
    if (fd < 0) {
        char why[256];
        send_result(sock, -1, why_refused(errno, &prog, why));
        return -1;
    }
    send_result(sock, (int)fd, NULL);
    close((int)fd);
    return 0;
}

int rg_sv_parent_receive(int sock, char *why, size_t cap)
{
    char data[256] = "", buf[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {data, sizeof data - 1};
    struct msghdr m = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof buf};
    ssize_t n;
    while ((n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&m) : NULL;
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        int fd;
        memcpy(&fd, CMSG_DATA(c), sizeof fd);
        return fd;
    }
    snprintf(why, cap, "%s",
             n > 1 ? data : "the command's process ended before it installed the filter");
    return -1;
}
