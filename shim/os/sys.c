#include "os/sys.h"
#include "core/hot.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Atomic(rg_trampoline_fn) rg_trampoline_;
#define trampoline rg_trampoline_

#if defined(__x86_64__)
/* rax=nr, then the six arguments in the kernel's registers; the seventh
 * C argument is on the stack. The syscall ends at offset 0x19. */
static const unsigned char trampoline_code[] = {
    0x48, 0x89, 0xf8,             /* mov %rdi,%rax */
    0x48, 0x89, 0xf7,             /* mov %rsi,%rdi */
    0x48, 0x89, 0xd6,             /* mov %rdx,%rsi */
    0x48, 0x89, 0xca,             /* mov %rcx,%rdx */
    0x4d, 0x89, 0xc2,             /* mov %r8,%r10 */
    0x4d, 0x89, 0xc8,             /* mov %r9,%r8 */
    0x4c, 0x8b, 0x4c, 0x24, 0x08, /* mov 0x8(%rsp),%r9 */
    0x0f, 0x05,                   /* syscall */
    0xc3,                         /* ret */
};
_Static_assert(sizeof trampoline_code == 0x1a, "RG_TRAMPOLINE_IP is wrong");

void rg_trampoline_map(void)
{
    const char *want = getenv(RG_ENV_TRAMPOLINE);
    if (!want || !*want || atomic_load(&trampoline))
        return;
    void *p = mmap((void *)RG_TRAMPOLINE_ADDR, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED)
        return;
    /* After a fork the child has the page already: an exec'd image not. */
    if (p != (void *)RG_TRAMPOLINE_ADDR) {
        munmap(p, 4096);
        return;
    }
    memcpy(p, trampoline_code, sizeof trampoline_code);
    if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0) {
        munmap(p, 4096);
        return;
    }
    atomic_store(&trampoline, (rg_trampoline_fn)p);
}
#else
void rg_trampoline_map(void) {}
#endif

/* The one place the shim enters the kernel for the calls it guards. Kept out
 * of line on purpose: supervised mode trusts this instruction's address. */
RG_START_TEXT __attribute__((noinline)) long rg_syscall6(long nr, long a, long b, long c, long d,
                                                         long e, long f)
{
    rg_trampoline_fn t = atomic_load_explicit(&trampoline, memory_order_relaxed);
    if (t)
        return t(nr, a, b, c, d, e, f);
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = nr;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc 0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return x0;
#else
#error "readguard supports x86_64 and aarch64"
#endif
}
