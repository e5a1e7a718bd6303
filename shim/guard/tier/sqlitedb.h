/* Is a file an SQLite database, or one its library keeps beside one (the
 * write-ahead log NAME-wal, its index NAME-shm, the rollback journal
 * NAME-journal)? A program opens its database for writing before reading a
 * byte of it (sqlite3_open), and outside a git work tree no ignore rule
 * says the file is its tools'. They are journaled (readguard(1), IGNORE
 * RULES), never free: a local database is often the only copy.
 *
 * Asked only for a write that would otherwise be refused; the answer is
 * the file's first bytes as they are now. */
#ifndef RG_SQLITEDB_H
#define RG_SQLITEDB_H

#include <stdbool.h>

/* abs: the file's absolute real path; head: its first n bytes (n < 0:
 * none could be read). True when the regular file begins with SQLite's
 * header, or abs is NAME-wal, NAME-shm or NAME-journal and the regular
 * file NAME does. */
bool rg_sqlitedb_owned(const char *abs, const char *head, long n);

#endif
