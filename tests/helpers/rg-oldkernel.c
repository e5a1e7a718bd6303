/* Runs a command as if on a kernel older than 5.19: seccomp() with
 * SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV fails with EINVAL, as it does
 * there. For testing that supervised mode refuses to start on such a kernel.
 *   rg-oldkernel COMMAND [ARG]... */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof f / sizeof *f, f};
    if (argc < 2) {
        fprintf(stderr, "usage: rg-oldkernel COMMAND [ARG]...\n");
        return 2;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
        perror("rg-oldkernel: seccomp");
        return 2;
    }
    execvp(argv[1], argv + 1);
    perror("rg-oldkernel: exec");
    return 127;
}
