/* The libc functions that glibc 2.34 moved into libc.so.6 (from libdl and
 * libpthread) also keep their first version there, the same code at the
 * same address. Bound to that one, the shim needs no GLIBC_2.34: ld.so
 * checks each version a library needs against libc's list of them (42
 * long, 2.34 near its end) in every process the shim is loaded into. The
 * shim still needs glibc 2.34 or later: before it, these lived in libdl
 * and libpthread. x86_64 only: other architectures start at another
 * version. */
#ifndef RG_SYMVER_H
#define RG_SYMVER_H

#include <features.h>

#if defined(__GLIBC__) && defined(__x86_64__) && defined(__PIC__)
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver dladdr,dladdr@GLIBC_2.2.5");
__asm__(".symver pthread_once,pthread_once@GLIBC_2.2.5");
#endif

#endif
