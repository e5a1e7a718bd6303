/* Is a file a wheel a Python build tool wrote (core/toolmark.h)? pip
 * wheel . saves it in the working directory, beside the sources, and
 * writes it over unread each run; outside a git work tree no ignore rule
 * says it is the tool's. It is journaled (readguard(1), IGNORE RULES),
 * never free: a wheel kept in a project may be the only copy of a build.
 * Told by its name and its own first bytes, never by its directory.
 *
 * Asked only for a write that would otherwise be refused; the answer is
 * the file's first bytes as they are now. */
#ifndef RG_WHEEL_H
#define RG_WHEEL_H

#include <stdbool.h>

/* abs: the file's absolute real path; fd: a descriptor on it, or -1. */
bool rg_wheel_owned(const char *abs, int fd);

#endif
