/* Is a file one autoconf or its configure wrote: configure, autoheader's
 * config.h.in, config.log, config.status, a stamp-hN? Or one cmake wrote
 * in an in-source build: Makefile, cmake_install.cmake,
 * CTestTestfile.cmake, and the install_manifest.txt its install step
 * writes beside a cmake_install.cmake cmake wrote? Or perl Makefile.PL's MYMETA.json, MYMETA.yml?
 * They are written
 * over before a byte of them is read, every run (autoconf and autoheader
 * move configure and config.h.in onto NAME~), and
 * outside a git work tree no ignore rule says they are the tools'. They
 * are journaled (readguard(1), IGNORE RULES), never free; each is told by
 * its name and its own first lines (core/toolmark.h), never by its
 * directory: an in-source build puts them beside the sources.
 *
 * Asked only for a write that would otherwise be refused; the answer is
 * the file's first bytes as they are now. */
#ifndef RG_CONFIGURED_H
#define RG_CONFIGURED_H

#include <stdbool.h>

/* abs: the file's absolute real path; head: its first n bytes (n < 0:
 * none could be read), at least RG_CONFIGURE_HEAD of them when it has
 * them. */
bool rg_configured_owned(const char *abs, const char *head, long n);

#endif
