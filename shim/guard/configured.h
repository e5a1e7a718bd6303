/* Is a file the config.log or config.status autoconf's configure wrote?
 * configure opens both for writing before it reads a byte, every time it
 * runs, and outside a git work tree no ignore rule says they are its. They
 * are journaled (readguard(1), IGNORE RULES), never free; each is told by
 * its name and its own first lines (core/toolmark.h), never by its
 * directory: an in-source build puts them beside the sources.
 *
 * Asked only for a write that would otherwise be refused; the answer is
 * the file's first bytes as they are now. */
#ifndef RG_CONFIGURED_H
#define RG_CONFIGURED_H

#include <stdbool.h>

/* abs: the file's absolute real path; fd: a descriptor on it, or -1. */
bool rg_configured_owned(const char *abs, int fd);

#endif
