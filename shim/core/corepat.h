/* Where a crash's core dump goes, from the kernel's core_pattern (core(5)).
 * Pure: works on the text the caller read. */
#ifndef RG_COREPAT_H
#define RG_COREPAT_H

#include <stdbool.h>

/* Does a dump under this pattern land in a file by name? One that begins
 * with '|' is piped to a program (systemd-coredump, apport); any other
 * names a file, which the kernel removes and writes anew with no system
 * call of the crashing process that the library or seccomp could see. An
 * empty one writes nothing. NULL (the pattern could not be read) counts
 * as a file, the side that keeps a file from being replaced unseen. */
bool rg_core_names_file(const char *pattern);

#endif
