/*
 * rgprobe built with -D_FORTIFY_SOURCE=2 and -D_FILE_OFFSET_BITS=64 at once,
 * so that its two-argument opens go through __open64_2 and __openat64_2
 * (the entry points Perl uses).  Same interface as rgprobe.c.
 */
#undef _FORTIFY_SOURCE
#define _FORTIFY_SOURCE 2
#undef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#include "rgprobe.c"