/* Is a file a test or coverage report its tool wrote (core/reportmark.h:
 * coverage.py's, pytest's JUnit XML, istanbul's, go test's coverprofile),
 * told by its own first bytes, never by its name or its directory: the
 * user names each report (coverage xml -o, --junitxml=), and the tools put
 * them beside the sources. Each run writes them over unread, and outside
 * a git work tree no ignore rule says they are the tools'. They are
 * journaled (readguard(1), IGNORE RULES), never free: anyone can write
 * such a head.
 *
 * Asked only for a write that would otherwise be refused; the answer is
 * the file's first bytes as they are now. */
#ifndef RG_REPORTS_H
#define RG_REPORTS_H

#include <stdbool.h>

/* abs: the file's absolute real path; fd: a descriptor on it, or -1. */
bool rg_report_owned(const char *abs, int fd);

#endif
