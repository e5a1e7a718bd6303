/* The floor of the supervised rows, measured: runs COMMAND under a seccomp
 * filter that sends open and openat to a listener, except those made from
 * the library's trampoline (as the filter of readguard run --supervise
 * does), and answers each at once with SECCOMP_USER_NOTIF_FLAG_CONTINUE
 * after reading its path from the caller (process_vm_readv). That is the
 * round trip any supervisor pays for a dynamic loader's opens, with nothing
 * judged or recorded: one handler thread, synchronous wake-ups, as
 * readguard's. scripts/dev/bench.sh times it with the shim preloaded, in
 * the same rounds as the row bare and supervised.
 *
 *   RG_NOTIFY_COUNT=FILE  write the number of calls answered to FILE at exit
 *   RG_NOTIFY_ALL=1       send every open, the trampoline's too, as the
 *       filter of --strict does
 *   RG_NOTIFY_CARRY=1     carry each open out instead of letting it through,
 *       as --strict must (a path checked and then let through to the kernel
 *       can be swapped in between, seccomp_unotify(2)): open the caller's
 *       cwd or dirfd from /proc, open the path from there, install the
 *       descriptor in the caller with its answer (ADDFD), close both. Those
 *       the supervisor lets through go on (supervise/passthrough.c: O_PATH,
 *       which ADDFD cannot install, and read-only directories)
 *
 * Usage: rgnotify COMMAND [ARG]...   exits with COMMAND's status. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/sys.h"
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS /* Linux 6.6; older headers lack it */
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1UL
#endif

#define LD(off) (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, (v))
#define JEQ(k, jt, jf) (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (jt), (jf))

static volatile unsigned long answered;

static int install(void)
{
    struct sock_filter f[] = {
        LD(offsetof(struct seccomp_data, nr)),
        JEQ(SYS_openat, 1, 0),
        JEQ(SYS_open, 0, 5),
        LD(offsetof(struct seccomp_data, instruction_pointer)),
        JEQ((uint32_t)(RG_TRAMPOLINE_IP & 0xffffffffu), 0, 2),
        LD(offsetof(struct seccomp_data, instruction_pointer) + 4),
        JEQ((uint32_t)(RG_TRAMPOLINE_IP >> 32), 1, 0),
        RET(SECCOMP_RET_USER_NOTIF),
        RET(SECCOMP_RET_ALLOW),
    };
    if (getenv("RG_NOTIFY_ALL"))
        f[3] = RET(SECCOMP_RET_USER_NOTIF); /* as --strict's filter: no exception */
    struct sock_fprog prog = {sizeof f / sizeof *f, f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                        &prog);
}

static int send_fd(int sock, int fd)
{
    char byte = 0, buf[CMSG_SPACE(sizeof fd)];
    struct iovec io = {&byte, 1};
    struct msghdr m = {
        .msg_iov = &io, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof buf};
    memset(buf, 0, sizeof buf);
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fd);
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
    char byte, buf[CMSG_SPACE(sizeof(int))];
    struct iovec io = {&byte, 1};
    struct msghdr m = {
        .msg_iov = &io, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof buf};
    if (recvmsg(sock, &m, 0) != 1 || !CMSG_FIRSTHDR(&m))
        return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof fd);
    return fd;
}

/* The caller's directory the path starts from, as the supervisor opens it
 * (supervise/target.c): AT_FDCWD for an absolute path. */
static int caller_dir(const struct seccomp_notif *req, const char *path)
{
    char link[64];
    int dirfd = req->data.nr == SYS_openat ? (int)req->data.args[0] : AT_FDCWD;
    if (path[0] == '/')
        return AT_FDCWD;
    if (dirfd == AT_FDCWD)
        snprintf(link, sizeof link, "/proc/%u/cwd", req->pid);
    else
        snprintf(link, sizeof link, "/proc/%u/fd/%d", req->pid, dirfd);
    return open(link, O_PATH | O_CLOEXEC);
}

static void carry_out(int listener, const struct seccomp_notif *req, const char *path)
{
    int at = req->data.nr == SYS_openat;
    int flags = (int)req->data.args[at + 1];
    if ((flags & O_PATH) ||
        ((flags & O_DIRECTORY) && (flags & O_ACCMODE) == O_RDONLY && !(flags & O_CREAT))) {
        struct seccomp_notif_resp resp = {.id = req->id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
        return;
    }
    int dfd = caller_dir(req, path);
    int fd = dfd >= 0 || dfd == AT_FDCWD
                 ? openat(dfd, path, flags | O_CLOEXEC, (mode_t)req->data.args[at + 2])
                 : -1;
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) {
        struct seccomp_notif_addfd a = {.id = req->id,
                                        .flags = SECCOMP_ADDFD_FLAG_SEND,
                                        .srcfd = (unsigned)fd,
                                        .newfd_flags = flags & O_CLOEXEC};
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0)
            err = errno;
        close(fd);
    }
    if (fd < 0 || err) {
        struct seccomp_notif_resp resp = {.id = req->id, .error = -err};
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
    }
    if (dfd >= 0)
        close(dfd);
}

static void *answer(void *arg)
{
    int listener = (int)(intptr_t)arg;
    bool carry = getenv("RG_NOTIFY_CARRY") != NULL;
    struct seccomp_notif_sizes sizes;
    if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
        return NULL;
    size_t size = sizes.seccomp_notif > sizeof(struct seccomp_notif) ? sizes.seccomp_notif
                                                                     : sizeof(struct seccomp_notif);
    struct seccomp_notif *req = malloc(size);
    if (!req)
        return NULL;
    for (;;) {
        memset(req, 0, size);
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
            if (errno == EINTR || errno == ENOENT)
                continue;
            break;
        }
        /* The path, as a supervisor must read it to decide anything. */
        char path[4096];
        int at = req->data.nr == SYS_openat;
        struct iovec mine = {path, sizeof path};
        struct iovec theirs = {(void *)(uintptr_t)req->data.args[at], sizeof path};
        if (process_vm_readv((pid_t)req->pid, &mine, 1, &theirs, 1, 0) < 0)
            path[0] = '\0';
        answered++; /* before the answer: the caller may exit right after it */
        if (carry) {
            carry_out(listener, req, path);
            continue;
        }
        struct seccomp_notif_resp resp = {.id = req->id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
    }
    free(req);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rgnotify COMMAND [ARG]...\n");
        return 2;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        perror("rgnotify: socketpair");
        return 125;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("rgnotify: fork");
        return 125;
    }
    if (pid == 0) {
        int listener = install();
        if (listener < 0 || send_fd(sv[1], listener) != 0) {
            perror("rgnotify: seccomp");
            _exit(125);
        }
        close(listener);
        execvp(argv[1], argv + 1);
        perror("rgnotify: exec");
        _exit(127);
    }
    close(sv[1]);
    int listener = recv_fd(sv[0]);
    pthread_t th;
    if (listener < 0 || pthread_create(&th, NULL, answer, (void *)(intptr_t)listener) != 0) {
        fprintf(stderr, "rgnotify: no listener\n");
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return 125;
    }
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 125;
    const char *count = getenv("RG_NOTIFY_COUNT");
    FILE *f = count ? fopen(count, "w") : NULL;
    if (f) {
        fprintf(f, "%lu\n", answered);
        fclose(f);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
