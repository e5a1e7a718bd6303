/* Unit tests for the supervised-mode seccomp filter, run through a small
 * classic-BPF interpreter (only the instructions the filter uses). */
#if !defined(__x86_64__)
#include <stdio.h>
int main(void)
{
    puts("1..0 # SKIP supervised mode is x86_64 only");
    return 0;
}
#else
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "check.h"
#include "core/syscall.h"
#include "os/sys.h"
#include "supervise/supervise.h"
static uint32_t run_filter(enum rg_sv_level level, const struct seccomp_data *d)
{
    struct sock_filter f[RG_SV_FILTER_MAX];
    size_t n = rg_sv_filter_build(f, level);
    uint32_t a = 0;
    CHECK(n <= RG_SV_FILTER_MAX);
    for (size_t pc = 0; pc < n; pc++) {
        const struct sock_filter *i = &f[pc];
        switch (i->code) {
        case BPF_LD | BPF_W | BPF_ABS: memcpy(&a, (const char *)d + i->k, 4); break;
        case BPF_JMP | BPF_JEQ | BPF_K: pc += a == i->k ? i->jt : i->jf; break;
        case BPF_JMP | BPF_JGE | BPF_K: pc += a >= i->k ? i->jt : i->jf; break;
        case BPF_JMP | BPF_JSET | BPF_K: pc += a & i->k ? i->jt : i->jf; break;
        case BPF_RET | BPF_K: return i->k;
        default: CHECK(!"unexpected instruction"); return 0;
        }
    }
    CHECK(!"fell off the end");
    return 0;
}

static struct seccomp_data call(int nr, uint64_t ip)
{
    return (struct seccomp_data){.nr = nr, .arch = AUDIT_ARCH_X86_64, .instruction_pointer = ip};
}

#define NOTIFY SECCOMP_RET_USER_NOTIF
#define ALLOW SECCOMP_RET_ALLOW
#define FAIL(e) (SECCOMP_RET_ERRNO | (e))

TEST(guarded_calls_go_to_the_supervisor)
{
    int nrs[] = {
#define RG_SYSCALL(name, ...) SYS_##name,
#include "core/syscalls.def"
#undef RG_SYSCALL
    };
    for (size_t i = 0; i < sizeof nrs / sizeof *nrs; i++) {
        if (nrs[i] == SYS_openat2)
            continue; /* fails outright, below */
        struct seccomp_data d = call(nrs[i], 0x401000);
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), NOTIFY);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    }
}

TEST(other_calls_pass)
{
    struct seccomp_data d = call(SYS_read, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    d = call(SYS_ftruncate, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(calls_that_change_ids_go_to_the_supervisor_even_from_the_trampoline)
{
    int nrs[] = {SYS_setuid,    SYS_setgid,    SYS_setreuid, SYS_setregid, SYS_setgroups,
                 SYS_setresuid, SYS_setresgid, SYS_setfsuid, SYS_setfsgid};
    for (size_t i = 0; i < sizeof nrs / sizeof *nrs; i++) {
        struct seccomp_data d = call(nrs[i], RG_TRAMPOLINE_IP);
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), NOTIFY);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
        CHECK(rg_sv_changes_ids(nrs[i]));
    }
    /* Their neighbours by number pass. */
    int others[] = {SYS_getuid, SYS_geteuid, SYS_getresuid, SYS_getgroups,
                    SYS_setsid, SYS_getsid,  SYS_setpgid};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        struct seccomp_data d = call(others[i], 0x401000);
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
        CHECK(!rg_sv_changes_ids(others[i]));
    }
}

TEST(calls_that_lower_capabilities_go_to_the_supervisor_other_prctls_pass)
{
    struct seccomp_data d = call(SYS_capset, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), NOTIFY);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    CHECK(rg_sv_changes_ids(SYS_capset));
    int lowering[] = {PR_CAPBSET_DROP, PR_SET_SECUREBITS};
    for (size_t i = 0; i < sizeof lowering / sizeof *lowering; i++) {
        d = call(SYS_prctl, 0x401000);
        d.args[0] = (uint64_t)lowering[i];
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), NOTIFY);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    }
    CHECK(rg_sv_changes_ids(SYS_prctl));
    int others[] = {PR_SET_NAME, PR_GET_SECUREBITS, PR_CAPBSET_READ, PR_SET_NO_NEW_PRIVS};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        d = call(SYS_prctl, 0x401000);
        d.args[0] = (uint64_t)others[i];
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
    }
    d = call(SYS_capget, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(the_trampoline_is_trusted_only_in_hybrid_mode)
{
    struct seccomp_data d = call(SYS_openat, RG_TRAMPOLINE_IP);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    /* Same low half, another page: not the trampoline. */
    d = call(SYS_openat, RG_TRAMPOLINE_IP + (1ULL << 32));
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), NOTIFY);
    d = call(SYS_openat, RG_TRAMPOLINE_IP - 2);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), NOTIFY);
}

TEST(other_entry_points_are_refused)
{
    struct seccomp_data d = call(SYS_openat | 0x40000000, 0);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), FAIL(ENOSYS));
    d = call(5 /* i386 open */, 0);
    d.arch = AUDIT_ARCH_I386;
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), FAIL(ENOSYS));
}

TEST(unseen_openers_are_refused)
{
    struct seccomp_data d = call(SYS_io_uring_setup, RG_TRAMPOLINE_IP);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), FAIL(ENOSYS));
    d = call(SYS_open_by_handle_at, RG_TRAMPOLINE_IP);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), FAIL(EPERM));
}

TEST(a_nested_listener_is_refused_other_filters_pass)
{
    struct seccomp_data d = call(SYS_seccomp, 0);
    d.args[0] = SECCOMP_SET_MODE_FILTER;
    d.args[1] = SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC;
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(EPERM));
    d.args[1] = SECCOMP_FILTER_FLAG_TSYNC;
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

static struct seccomp_data with_flags(int nr, uint64_t flags)
{
    struct seccomp_data d = call(nr, 0x401000);
    d.args[0] = flags;
    return d;
}

TEST(strict_sends_new_user_and_mount_namespaces_to_be_refused)
{
    struct seccomp_data d = with_flags(SYS_unshare, CLONE_NEWUSER);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    d = with_flags(SYS_unshare, CLONE_NEWNS | CLONE_NEWPID);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    d = with_flags(SYS_clone, CLONE_NEWUSER | SIGCHLD);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    d = with_flags(SYS_setns, 0);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    d = with_flags(SYS_chroot, 0);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
}

TEST(strict_sends_mounts_and_the_kernels_own_writes_to_be_refused)
{
    long nrs[] = {SYS_mount,     SYS_umount2,        SYS_pivot_root, SYS_move_mount,
                  SYS_open_tree, SYS_open_tree_attr, SYS_fsopen,     SYS_fsmount,
                  SYS_fspick,    SYS_mount_setattr,  SYS_acct,       SYS_swapon};
    for (size_t i = 0; i < sizeof nrs / sizeof *nrs; i++) {
        struct seccomp_data d = with_flags((int)nrs[i], 0);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    }
    struct seccomp_data d = with_flags(SYS_quotactl, 0); /* left to root's other powers */
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(strict_fails_typing_into_a_terminal_other_ioctls_pass)
{
    struct seccomp_data d = call(SYS_ioctl, 0x401000);
    d.args[1] = TIOCSTI;
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(EPERM));
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    d.args[1] = TIOCSTI | (1ULL << 32); /* the kernel reads an unsigned int */
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(EPERM));
    d.args[1] = TIOCLINUX;
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(EPERM));
    d.args[1] = TIOCGWINSZ;
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
    d.args[1] = FIONREAD;
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(strict_lets_fork_threads_and_other_namespaces_pass)
{
    struct seccomp_data d = with_flags(SYS_clone, CLONE_VM | CLONE_THREAD | CLONE_SIGHAND);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
    d = with_flags(SYS_clone, SIGCHLD);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
    d = with_flags(SYS_unshare, CLONE_FILES | CLONE_NEWNET);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(strict_fails_clone3_whose_flags_it_cannot_see)
{
    struct seccomp_data d = with_flags(SYS_clone3, 0);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(ENOSYS));
}

TEST(strict_fails_the_xattr_at_calls_whose_value_it_cannot_see)
{
    long nrs[] = {SYS_setxattrat, SYS_removexattrat};
    for (size_t i = 0; i < 2; i++) {
        struct seccomp_data d = call((int)nrs[i], 0x401000);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(ENOSYS));
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    }
}

TEST(openat2_whose_flags_it_cannot_see_fails_with_enosys_in_both_modes)
{
    struct seccomp_data d = call(SYS_openat2, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), FAIL(ENOSYS));
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(ENOSYS));
    d = call(SYS_openat2, RG_TRAMPOLINE_IP);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(ENOSYS));
}

TEST(the_shims_own_openat2_passes_in_hybrid_mode)
{
    struct seccomp_data d = call(SYS_openat2, RG_TRAMPOLINE_IP);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    d = call(SYS_openat2, RG_TRAMPOLINE_IP + (1ULL << 32));
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), FAIL(ENOSYS));
}

TEST(hybrid_leaves_namespaces_alone)
{
    struct seccomp_data d = with_flags(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNS);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    d = with_flags(SYS_clone3, 0);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    d = with_flags(SYS_setns, 0);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
}

TEST(strict_sends_ptrace_attaches_and_process_vm_writev_to_the_supervisor)
{
    long attaches[] = {PTRACE_ATTACH, PTRACE_SEIZE};
    for (size_t i = 0; i < 2; i++) {
        struct seccomp_data d = with_flags(SYS_ptrace, (uint64_t)attaches[i]);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
        CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    }
    struct seccomp_data d = call(SYS_process_vm_writev, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
}

TEST(strict_sends_a_prlimit_of_another_process_to_the_supervisor)
{
    struct seccomp_data d = with_flags(SYS_prlimit64, 1234);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
    d = with_flags(SYS_prlimit64, 0); /* the caller's own: getrlimit, setrlimit */
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(strict_lets_other_ptrace_requests_and_process_vm_readv_pass)
{
    long others[] = {PTRACE_TRACEME, PTRACE_PEEKDATA, PTRACE_POKEDATA, PTRACE_CONT, PTRACE_DETACH};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        struct seccomp_data d = with_flags(SYS_ptrace, (uint64_t)others[i]);
        CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
    }
    struct seccomp_data d = call(SYS_process_vm_readv, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), ALLOW);
}

TEST(strict_fails_pidfd_getfd_whose_descriptor_it_cannot_pin)
{
    struct seccomp_data d = call(SYS_pidfd_getfd, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), FAIL(EPERM));
    CHECK_EQ_INT(run_filter(RG_SV_HYBRID, &d), ALLOW);
}

TEST(strict_still_guards_the_guarded_calls_after_the_namespace_checks)
{
    struct seccomp_data d = call(SYS_truncate, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
    d = call(SYS_openat, 0x401000);
    CHECK_EQ_INT(run_filter(RG_SV_STRICT, &d), NOTIFY);
}

int main(void)
{
    RUN(guarded_calls_go_to_the_supervisor);
    RUN(other_calls_pass);
    RUN(calls_that_change_ids_go_to_the_supervisor_even_from_the_trampoline);
    RUN(calls_that_lower_capabilities_go_to_the_supervisor_other_prctls_pass);
    RUN(the_trampoline_is_trusted_only_in_hybrid_mode);
    RUN(other_entry_points_are_refused);
    RUN(unseen_openers_are_refused);
    RUN(a_nested_listener_is_refused_other_filters_pass);
    RUN(strict_sends_new_user_and_mount_namespaces_to_be_refused);
    RUN(strict_sends_mounts_and_the_kernels_own_writes_to_be_refused);
    RUN(strict_fails_typing_into_a_terminal_other_ioctls_pass);
    RUN(strict_lets_fork_threads_and_other_namespaces_pass);
    RUN(strict_fails_clone3_whose_flags_it_cannot_see);
    RUN(strict_fails_the_xattr_at_calls_whose_value_it_cannot_see);
    RUN(openat2_whose_flags_it_cannot_see_fails_with_enosys_in_both_modes);
    RUN(the_shims_own_openat2_passes_in_hybrid_mode);
    RUN(hybrid_leaves_namespaces_alone);
    RUN(strict_sends_ptrace_attaches_and_process_vm_writev_to_the_supervisor);
    RUN(strict_sends_a_prlimit_of_another_process_to_the_supervisor);
    RUN(strict_lets_other_ptrace_requests_and_process_vm_readv_pass);
    RUN(strict_fails_pidfd_getfd_whose_descriptor_it_cannot_pin);
    RUN(strict_still_guards_the_guarded_calls_after_the_namespace_checks);
    return check_done();
}
#endif
