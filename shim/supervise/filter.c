/* The seccomp filter of a supervised tree. Guarded calls go to the
 * supervisor, and so do the calls that change ids or lower capabilities,
 * to be noted and let run; calls that would let a process see or write
 * files unseen are refused outright:
 * - io_uring opens files without a system call seccomp could see;
 * - open_by_handle_at opens an inode without a path (and needs no write
 *   check to succeed);
 * - the 32-bit and x32 entry points have other numbers for the same calls;
 * - a nested listener would let the tree answer its own calls.
 * Under --strict, new user and mount namespaces, setns, chroot, mounts and
 * the calls that have the kernel write a file by name (acct, swapon) go to
 * the supervisor only to be refused with the reason (supervise/ns.c): in
 * them a path the tree names could be another file than the one the
 * supervisor resolves, or a file be written with no call to judge.
 * The tree's ptrace attaches and process_vm_writev go there too, to be
 * let run only on its own processes, and pidfd_getfd fails: a process of
 * the user outside the tree writes for whoever drives it (reach.c).
 * An ioctl typing into a terminal fails (terminal_input).
 * clone3 passes its flags in memory, where a filter cannot look,
 * so it fails with ENOSYS, which makes glibc and Go fall back to clone;
 * so do setxattrat and removexattrat (Linux 6.13, value in memory too),
 * which no libc makes for setxattr, whose own calls are judged (meta.c).
 * openat2 fails with ENOSYS in both modes, for the same reason: the kernel
 * would read its flags again from memory another thread can rewrite after
 * any check, and the one open the supervisor cannot carry out itself, an
 * O_PATH one (ADDFD cannot install it), would have to be let through. So
 * the tree sees a kernel without openat2, consistently, and its callers
 * fall back to openat, whose flags are in the registers. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <sched.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "core/syscall.h"
#include "os/sys.h"
#include "supervise/supervise.h"
#if defined(__x86_64__)
#define RG_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RG_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

static const long guarded[] = {
#define RG_SYSCALL(name, ...) SYS_##name,
#include "core/syscalls.def"
#undef RG_SYSCALL
};

#define NGUARDED (sizeof guarded / sizeof *guarded)

/* The calls that change a process's ids. Each goes to the supervisor,
 * which notes that the tree's ids may now differ from readguard's and lets
 * it run: until one is made, every process of the tree has readguard's ids
 * (under no_new_privs an exec changes none), and the supervisor need not
 * look at each caller's (creds.c). Checked before the trampoline's
 * exception, which the library never needs for them. */
static const long id_calls[] = {SYS_setuid,    SYS_setgid,    SYS_setreuid,  SYS_setregid,
                                SYS_setgroups, SYS_setresuid, SYS_setresgid, SYS_setfsuid,
                                SYS_setfsgid,  SYS_capset};
#define NIDS (sizeof id_calls / sizeof *id_calls)

/* prctl is trapped only for what lowers a root process's capabilities at
 * its next exec (filter: caps_at_exec). */
bool rg_sv_changes_ids(long nr)
{
    for (size_t i = 0; i < NIDS; i++)
        if (id_calls[i] == nr)
            return true;
    return nr == SYS_prctl;
}
#define LD(off) (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, (v))
#define JEQ(k, jt, jf) (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (jt), (jf))
#define FAIL(e) RET(SECCOMP_RET_ERRNO | ((e)&SECCOMP_RET_DATA))

/* Expects the call's number loaded; continues past its last instruction
 * with it still loaded. */
static size_t namespaces(struct sock_filter *out)
{
    static const long refused[] = {
#define RG_REFUSED(name) SYS_##name,
        RG_SV_REFUSED_CALLS(RG_REFUSED)
#undef RG_REFUSED
    };
    const size_t k = sizeof refused / sizeof *refused;
    size_t n = 0;
    out[n++] = JEQ(SYS_clone3, 0, 1);
    out[n++] = FAIL(ENOSYS);
    for (size_t i = 0; i < k; i++) /* each on to the RET(USER_NOTIF) below */
        out[n++] = JEQ((unsigned)refused[i], (unsigned char)(k - i + 3), 0);
    out[n++] = JEQ(SYS_unshare, 1, 0);
    out[n++] = JEQ(SYS_clone, 0, 4);
    out[n++] = LD(offsetof(struct seccomp_data, args[0])); /* the flags of both */
    out[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RG_SV_NS_FLAGS, 0, 1);
    out[n++] = RET(SECCOMP_RET_USER_NOTIF);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    return n;
}

/* Expects the call's number loaded; continues past its last instruction
 * with it still loaded. */
static size_t xattr_at(struct sock_filter *out)
{
    size_t n = 0;
    out[n++] = JEQ(SYS_setxattrat, 1, 0);
    out[n++] = JEQ(SYS_removexattrat, 0, 1);
    out[n++] = FAIL(ENOSYS);
    return n;
}

/* Expects the call's number loaded; continues past its last instruction
 * with it still loaded. A --strict tree's ways into a process outside it
 * (reach.c): a ptrace attach, process_vm_writev and a prlimit of another
 * process go to the supervisor, which lets them run on the tree's own
 * processes; pidfd_getfd fails. */
static size_t processes(struct sock_filter *out)
{
    size_t n = 0;
    /* prlimit of a process other than the caller (pid 0): readguard's own
     * (a file size limit its journal cannot keep a file under) or one
     * outside the tree (an editor's save cut short). */
    out[n++] = JEQ(SYS_prlimit64, 0, 4);
    out[n++] = LD(offsetof(struct seccomp_data, args[0]));
    out[n++] = JEQ(0, 0, 1);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    out[n++] = RET(SECCOMP_RET_USER_NOTIF);
    out[n++] = JEQ(SYS_pidfd_getfd, 0, 1);
    out[n++] = FAIL(EPERM);
    out[n++] = JEQ(SYS_process_vm_writev, 5, 0);
    out[n++] = JEQ(SYS_ptrace, 0, 5);
    /* The low half of the request: a long whose high half is set is no
     * request at all, so this sends a superset of the attaches. */
    out[n++] = LD(offsetof(struct seccomp_data, args[0]));
    out[n++] = JEQ(PTRACE_ATTACH, 2, 0);
    out[n++] = JEQ(PTRACE_SEIZE, 1, 0);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    out[n++] = RET(SECCOMP_RET_USER_NOTIF);
    return n;
}

/* Expects the call's number loaded; continues past its last instruction
 * with it still loaded. TIOCSTI pushes bytes into a terminal's input, and
 * TIOCLINUX pastes a console's selection there: the shell that started
 * readguard reads them once the tree is gone and runs them outside the
 * session. The request is an unsigned int, the low half the kernel reads;
 * every other ioctl passes. */
static size_t terminal_input(struct sock_filter *out)
{
    size_t n = 0;
    out[n++] = JEQ(SYS_ioctl, 0, 5);
    out[n++] = LD(offsetof(struct seccomp_data, args[1]));
    out[n++] = JEQ(TIOCSTI, 1, 0);
    out[n++] = JEQ(TIOCLINUX, 0, 1);
    out[n++] = FAIL(EPERM);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    return n;
}

/* Expects the call's number loaded; continues past its last instruction
 * with it still loaded. One range test for every other call. */
static size_t id_changes(struct sock_filter *out)
{
    long lo = id_calls[0], hi = id_calls[0];
    for (size_t i = 1; i < NIDS; i++) {
        lo = id_calls[i] < lo ? id_calls[i] : lo;
        hi = id_calls[i] > hi ? id_calls[i] : hi;
    }
    size_t n = 0;
    out[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (unsigned)lo, 0, NIDS + 2);
    out[n++] =
        (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (unsigned)hi + 1, NIDS + 1, 0);
    for (size_t i = 0; i < NIDS; i++)
        out[n++] = JEQ((unsigned)id_calls[i], (unsigned char)(NIDS - 1 - i),
                       (unsigned char)(i == NIDS - 1));
    out[n++] = RET(SECCOMP_RET_USER_NOTIF);
    return n;
}

/* Expects the call's number loaded; continues past its last instruction
 * with it still loaded. A root process that drops capabilities from its
 * bounding set, or sets SECBIT_NOROOT, has fewer after its next exec, and
 * readguard, acting for it, must then have fewer too (creds.c); any other
 * prctl passes. */
static size_t caps_at_exec(struct sock_filter *out)
{
    size_t n = 0;
    out[n++] = JEQ(SYS_prctl, 0, 5);
    out[n++] = LD(offsetof(struct seccomp_data, args[0]));
    out[n++] = JEQ(PR_CAPBSET_DROP, 1, 0);
    out[n++] = JEQ(PR_SET_SECUREBITS, 0, 1);
    out[n++] = RET(SECCOMP_RET_USER_NOTIF);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    return n;
}

/* Under --supervise, the shim's own calls, already checked, come from its
 * trampoline: they are allowed. Anything else falls through, with the
 * instruction pointer loaded. */
static size_t from_trampoline(struct sock_filter *out, enum rg_sv_level level)
{
#if defined(__x86_64__)
    if (level != RG_SV_HYBRID)
        return 0;
    size_t n = 0;
    out[n++] = LD(offsetof(struct seccomp_data, instruction_pointer));
    out[n++] = JEQ((unsigned)(RG_TRAMPOLINE_IP & 0xffffffffu), 0, 3);
    out[n++] = LD(offsetof(struct seccomp_data, instruction_pointer) + 4);
    out[n++] = JEQ((unsigned)(RG_TRAMPOLINE_IP >> 32), 0, 1);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    return n;
#else
    (void)out;
    (void)level;
    return 0;
#endif
}

size_t rg_sv_filter_build(struct sock_filter *out, enum rg_sv_level level)
{
    size_t n = 0;
    out[n++] = LD(offsetof(struct seccomp_data, arch));
    out[n++] = JEQ(RG_AUDIT_ARCH, 1, 0);
    out[n++] = FAIL(ENOSYS);
    out[n++] = LD(offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    out[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                            0x40000000u /* __X32_SYSCALL_BIT */, 0, 1);
    out[n++] = FAIL(ENOSYS);
#endif
    out[n++] = JEQ(SYS_io_uring_setup, 0, 1);
    out[n++] = FAIL(ENOSYS);
    out[n++] = JEQ(SYS_open_by_handle_at, 0, 1);
    out[n++] = FAIL(EPERM);
    out[n++] = JEQ(SYS_seccomp, 0, 4);
    out[n++] = LD(offsetof(struct seccomp_data, args[1]));
    out[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                                            SECCOMP_FILTER_FLAG_NEW_LISTENER, 0, 1);
    out[n++] = FAIL(EPERM);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    n += id_changes(out + n);
    n += caps_at_exec(out + n);
    if (level == RG_SV_STRICT) {
        n += namespaces(out + n);
        n += xattr_at(out + n);
        n += processes(out + n);
        n += terminal_input(out + n);
    }
    size_t at = n++;
    n += from_trampoline(out + n, level); /* the library's own, checked */
    out[n++] = FAIL(ENOSYS);
    out[at] = JEQ(SYS_openat2, 0, (unsigned char)(n - at - 1));
    for (size_t i = 0; i < NGUARDED; i++)
        out[n++] = JEQ((unsigned)guarded[i], (unsigned char)(NGUARDED - i), 0);
    out[n++] = RET(SECCOMP_RET_ALLOW);
    n += from_trampoline(out + n, level);
    out[n++] = RET(SECCOMP_RET_USER_NOTIF);
    return n;
}
