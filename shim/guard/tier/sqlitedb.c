#include "guard/tier/sqlitedb.h"
#include <limits.h>
#include <string.h>

#include "core/toolmark.h"
#include "guard/tier/filehead.h"
bool rg_sqlitedb_owned(const char *abs, const char *head, long n)
{
    if (n > 0 && rg_sqlite_header(head, (size_t)n))
        return true;
    size_t len = rg_sqlite_companion(abs);
    char db[PATH_MAX];
    if (len == 0 || len >= sizeof db)
        return false;
    memcpy(db, abs, len);
    db[len] = '\0';
    char dbhead[RG_SQLITE_HEAD];
    long got = rg_file_head(db, dbhead, sizeof dbhead);
    return got > 0 && rg_sqlite_header(dbhead, (size_t)got);
}
