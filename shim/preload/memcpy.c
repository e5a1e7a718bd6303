/* The shim's memcpy, its own calls' and the copies the compiler emits: a
 * call to memmove. glibc's memcpy is version GLIBC_2.14, which nothing else
 * would make the shim need, and ld.so checks each version a library needs
 * against libc's list of versions when it loads the library, in every
 * process (callgrind, /bin/true: about 200 instructions for this one). The
 * shim's copies are short, and memmove (GLIBC_2.2.5, a version the shim
 * needs anyway) copies bytes that do not overlap the same. Hidden, as all
 * but the hooks are: the program and its other libraries keep libc's. */
#include <string.h>

/* No restrict: with it the compiler may turn the memmove into a memcpy,
 * which would be this function again. */
void *memcpy(void *dst, const void *src, size_t n) { return memmove(dst, src, n); }
