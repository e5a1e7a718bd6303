#include "guard/sqlitedb.h"
#include <limits.h>
#include <string.h>

#include "core/toolmark.h"
#include "guard/filehead.h"
/* Through the program's own descriptor when it can be read (sqlite3 opens
 * O_RDWR): the inode judged, not whatever the name holds by now. */
static bool database(const char *abs, int fd)
{
    char head[RG_SQLITE_HEAD];
    long n = rg_fd_head(fd, head, sizeof head);
    if (n < 0)
        n = rg_file_head(abs, head, sizeof head);
    return n > 0 && rg_sqlite_header(head, (size_t)n);
}

bool rg_sqlitedb_owned(const char *abs, int fd)
{
    if (database(abs, fd))
        return true;
    size_t n = rg_sqlite_companion(abs);
    char db[PATH_MAX];
    if (n == 0 || n >= sizeof db)
        return false;
    memcpy(db, abs, n);
    db[n] = '\0';
    return database(db, -1);
}
