/* libbsd's <bsd/stdlib.h> for the musl build: the program's name, which
 * musl keeps as glibc does. */
#ifndef RG_MUSL_BSD_STDLIB_H
#define RG_MUSL_BSD_STDLIB_H

#include <errno.h>
#include <stdlib.h>

static inline const char *getprogname(void) { return program_invocation_short_name; }

static inline void setprogname(const char *name)
{
    (void)name; /* musl set it from argv[0] already */
}

#endif
