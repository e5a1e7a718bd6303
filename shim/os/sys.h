/* Raw system calls, kernel style: a negative result is -errno.
 *
 * The shim carries out every operation it has checked itself, through one
 * trampoline, instead of calling back into libc: libc's entry points are what
 * it hooks, so a raw call can never recurse into a hook or touch errno, and a
 * single call site is what a seccomp filter can recognise (supervised mode).
 * Calls the shim does not hook may go through libc, but each libc function
 * the shim imports is work for ld.so in every process it is loaded into (a
 * symbol version to check, if it is the only one of its version), and each
 * it calls first on a path every process may take (the first hook's
 * attach, the restamp at exit) is bound lazily there, some 700
 * instructions: those paths, and fstat and its kin, use the raw calls. */
#ifndef RG_SYS_H
#define RG_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "core/settings.h"

long rg_syscall6(long nr, long a, long b, long c, long d, long e, long f);

/* Supervised mode (--supervise) lets the shim's own, already-checked calls
 * past its seccomp filter when they come from one instruction at a fixed
 * address: the filter cannot know where the shim is mapped in each process
 * (ASLR), so the shim copies a tiny trampoline to a constant address. The
 * filter compares the caller's instruction pointer with RG_TRAMPOLINE_IP. */
#define RG_TRAMPOLINE_ADDR 0x2e4b00000000UL
#define RG_TRAMPOLINE_IP (RG_TRAMPOLINE_ADDR + 0x19) /* just after its syscall */

/* Maps the trampoline if READGUARD_TRAMPOLINE asks for it. Idempotent;
 * without it (or if the address is taken) calls stay inline, which is only
 * slower under a supervisor, never wrong. */
void rg_trampoline_map(void);

/* The trampoline once mapped, else NULL: rg_syscall6 takes it then. */
typedef long (*rg_trampoline_fn)(long, long, long, long, long, long, long);
extern _Atomic(rg_trampoline_fn) rg_trampoline_ __attribute__((visibility("hidden")));

/* rg_syscall6 for calls of up to four arguments, the system call made in
 * line when there is no trampoline: the same call (only the trampoline's
 * address is let past the filter, so where else it is made does not
 * matter), without a call and a seventh argument on the stack. The read
 * path's open, fstat and close come here. */
static inline long rg_syscall4(long nr, long a, long b, long c, long d)
{
/* The analyzer cannot see what the kernel writes (a stat buffer): it is
 * shown the out-of-line call instead. */
#if defined(__x86_64__) && !defined(__clang_analyzer__)
    if (__builtin_expect(atomic_load_explicit(&rg_trampoline_, memory_order_relaxed) != NULL, 0))
        return rg_syscall6(nr, a, b, c, d, 0, 0);
    register long r10 __asm__("r10") = d;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return ret;
#else
    return rg_syscall6(nr, a, b, c, d, 0, 0);
#endif
}

static inline long rg_sys3(long nr, long a, long b, long c) { return rg_syscall4(nr, a, b, c, 0); }

/* The same for one argument: nothing to clear in the others' registers. A
 * close is this. */
static inline long rg_syscall1(long nr, long a)
{
#if defined(__x86_64__) && !defined(__clang_analyzer__)
    if (__builtin_expect(atomic_load_explicit(&rg_trampoline_, memory_order_relaxed) != NULL, 0))
        return rg_syscall6(nr, a, 0, 0, 0, 0, 0);
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a) : "rcx", "r11", "memory");
    return ret;
#else
    return rg_syscall6(nr, a, 0, 0, 0, 0, 0);
#endif
}

static inline int rg_sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
    return (int)rg_syscall4(SYS_openat, dirfd, (long)path, flags | O_LARGEFILE, mode);
}

static inline int rg_sys_close(int fd) { return (int)rg_syscall1(SYS_close, fd); }

/* The kernel's stat is the libc's on x86_64 and aarch64, the two supported. */
static inline int rg_sys_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    return (int)rg_syscall6(SYS_newfstatat, dirfd, (long)path, (long)st, flags, 0, 0);
}

/* fstat(2) itself, not fstatat with an empty path (what glibc's fstat
 * makes): the kernel then reads no path from user memory, about 20 ns less
 * on every write's two looks. */
static inline int rg_sys_fstat(int fd, struct stat *st)
{
#ifdef SYS_fstat
    return (int)rg_sys3(SYS_fstat, fd, (long)st, 0);
#else
    return rg_sys_fstatat(fd, "", st, AT_EMPTY_PATH);
#endif
}

static inline int rg_sys_getfl(int fd) { return (int)rg_sys3(SYS_fcntl, fd, F_GETFL, 0); }

static inline int rg_sys_getpid(void) { return (int)rg_sys3(SYS_getpid, 0, 0, 0); }

static inline unsigned rg_sys_geteuid(void) { return (unsigned)rg_sys3(SYS_geteuid, 0, 0, 0); }

/* MAP_FAILED, not -errno, on failure: as mmap(2). */
static inline void *rg_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    long r = rg_syscall6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, off);
    return r < 0 && r > -4096 ? (void *)-1 : (void *)r;
}

static inline int rg_sys_munmap(void *addr, size_t len)
{
    return (int)rg_sys3(SYS_munmap, (long)addr, (long)len, 0);
}

/* A count, or -errno, as getrandom(2); by system call, as libc's is one more
 * symbol version (GLIBC_2.25) for ld.so to check in every process. */
static inline long rg_sys_getrandom(void *buf, size_t len)
{
    return rg_sys3(SYS_getrandom, (long)buf, (long)len, 0);
}

static inline long rg_sys_read(int fd, void *buf, size_t len)
{
    return rg_sys3(SYS_read, fd, (long)buf, (long)len);
}

/* pread(2): the count, or -errno; the descriptor's offset is left alone. */
static inline long rg_sys_pread(int fd, void *buf, size_t len, off_t off)
{
    return rg_syscall4(SYS_pread64, fd, (long)buf, (long)len, (long)off);
}

/* Reads until len bytes are in or the file ends, retrying EINTR: the
 * count, or -errno. */
static inline long rg_sys_read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        long n = rg_sys_read(fd, (char *)buf + got, len - got);
        if (n == -EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? n : (long)got;
        got += (size_t)n;
    }
    return (long)got;
}

/* The kernel's signal set is _NSIG bits (64 on x86_64 and aarch64): the
 * first word of a sigset_t. */
#define RG_KSIGSET_SIZE 8
/* Always inline: every hook's enter and leave make these calls, and a copy
 * the compiler keeps out of line lands outside the start-up text
 * (core/hot.h), a page fault in a forked child that only execs. */
__attribute__((always_inline)) static inline int rg_sys_sigmask(int how, const sigset_t *set,
                                                                sigset_t *old)
{
    return (int)rg_syscall6(SYS_rt_sigprocmask, how, (long)set, (long)old, RG_KSIGSET_SIZE, 0, 0);
}

/* The same with the set as the kernel's one word. */
__attribute__((always_inline)) static inline int rg_sys_sigmask_word(int how, const uint64_t *set,
                                                                     sigset_t *old)
{
    return (int)rg_syscall6(SYS_rt_sigprocmask, how, (long)set, (long)old, RG_KSIGSET_SIZE, 0, 0);
}

static inline int rg_sys_ftruncate(int fd, off_t len)
{
    return (int)rg_sys3(SYS_ftruncate, fd, len, 0);
}

static inline int rg_sys_renameat2(int olddir, const char *oldp, int newdir, const char *newp,
                                   unsigned flags)
{
    return (int)rg_syscall6(SYS_renameat2, olddir, (long)oldp, newdir, (long)newp, flags, 0);
}

static inline int rg_sys_linkat(int olddir, const char *oldp, int newdir, const char *newp,
                                int flags)
{
    return (int)rg_syscall6(SYS_linkat, olddir, (long)oldp, newdir, (long)newp, flags, 0);
}

static inline int rg_sys_openat2(int dirfd, const char *path, void *how, size_t size)
{
    return (int)rg_syscall6(SYS_openat2, dirfd, (long)path, (long)how, (long)size, 0, 0);
}

static inline int rg_sys_dup3(int oldfd, int newfd, int flags)
{
    return (int)rg_sys3(SYS_dup3, oldfd, newfd, flags);
}

static inline int rg_sys_truncate(const char *path, off_t len)
{
    return (int)rg_sys3(SYS_truncate, (long)path, len, 0);
}

/* By the real ids, as access(2): what a message may say, never a decision. */
static inline int rg_sys_faccessat(int dirfd, const char *path, int mode)
{
    return (int)rg_sys3(SYS_faccessat, dirfd, (long)path, mode);
}

static inline int rg_sys_unlinkat(int dirfd, const char *path, int flags)
{
    return (int)rg_sys3(SYS_unlinkat, dirfd, (long)path, flags);
}

#endif
