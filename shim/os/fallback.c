/* What a launcher hands a session's processes beside the table's path
 * (os/session.h): apart from session.c, which makes and maps tables. */
#include <stdio.h>

#include "os/session.h"

const char *rg_session_fallback(const char *path, struct rg_fallback *f)
{
    struct rg_table t;
    const char *why = rg_session_attach(path, &t);
    if (why)
        return why;
    rg_table_roots_list(t.hdr, f->roots, sizeof f->roots);
    int n = snprintf(f->log, sizeof f->log, "%s", t.hdr->log_path);
    if (n < 0 || (size_t)n >= sizeof f->log || f->log[0] != '/')
        f->log[0] = '\0';
    rg_journal_id(f->id, t.hdr->created_ns, t.hdr->creator_pid);
    rg_tablebind_format(f->bind, path, t.dev, t.ino);
    rg_session_detach(&t);
    return NULL;
}
