/* The system calls a measured floor adds, made as the shim makes them: in
 * line (shim/os/sys.h's rg_syscall4), not through libc's syscall() or
 * fstat(). On this VM the first return after a system call to a frame
 * made before it costs about 47 ns (each further one about 5), and a call
 * through libc's wrapper pays one per call, where the shim's calls made in
 * line share the one return of the hooked call itself; and glibc's fstat
 * is fstatat with an empty path, about 50 ns dearer in the kernel than the
 * shim's fstat. A floor made through libc sat about 100 ns a call above
 * what the shim can reach (scripts/dev/bench-notes.md). Returns -errno. */
#ifndef RG_BENCH_RAWSYS_H
#define RG_BENCH_RAWSYS_H

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long raw_sys4(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return ret;
#else
    long r = syscall(nr, a, b, c, d);
    return r == -1 ? -errno : r;
#endif
}

/* renameat2's flags are its fifth argument. */
static inline long raw_sys5(long nr, long a, long b, long c, long d, long e)
{
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
#else
    long r = syscall(nr, a, b, c, d, e);
    return r == -1 ? -errno : r;
#endif
}

static inline long raw_sys0(long nr) { return raw_sys4(nr, 0, 0, 0, 0); }
static inline long raw_sys2(long nr, long a, long b) { return raw_sys4(nr, a, b, 0, 0); }

#endif
