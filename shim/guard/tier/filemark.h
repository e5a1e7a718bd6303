/* Does a file mark itself as its tools' by its name and its own first
 * bytes, never by its directory: an SQLite database and its companions
 * (sqlitedb), what autoconf, configure and cmake write over (configured),
 * a build artifact (artifact), a test or coverage report
 * (core/reportmark). Outside a git work tree no ignore rule says these
 * are the tools', and each run writes them over unread. They are journaled
 * (readguard(1), IGNORE RULES, Markers), never free.
 *
 * Asked only for a write that would otherwise be refused. The file's
 * first bytes are read once, for all of them: a refusal's cost is one
 * read, however many markers there are. */
#ifndef RG_FILEMARK_H
#define RG_FILEMARK_H

#include <stdbool.h>

/* abs: the file's absolute real path; fd: a descriptor on it, or -1. */
bool rg_file_marked(const char *abs, int fd);

#endif
