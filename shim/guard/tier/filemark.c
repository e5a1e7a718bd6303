#include "guard/tier/filemark.h"

#include "core/distmark.h"
#include "core/genmark.h"
#include "core/gomark.h"
#include "core/rejmark.h"
#include "core/reportmark.h"
#include "core/texmark.h"
#include "core/toolmark.h"
#include "guard/tier/artifact.h"
#include "guard/tier/configured.h"
#include "guard/tier/filehead.h"
#include "guard/tier/sqlitedb.h"
#include "guard/tier/texrun.h"
/* Enough of the head for every marker that reads one. */
#define FILE_HEAD RG_REPORT_HEAD
_Static_assert(FILE_HEAD >= RG_SQLITE_HEAD && FILE_HEAD >= RG_CONFIGURE_HEAD &&
                   FILE_HEAD >= RG_ARTIFACT_HEAD && FILE_HEAD >= RG_PICKLE_HEAD &&
                   FILE_HEAD >= RG_TEX_HEAD && FILE_HEAD >= RG_GO_GENERATED_HEAD &&
                   FILE_HEAD >= RG_DIST_HEAD && FILE_HEAD >= RG_GENERATED_C_HEAD &&
                   FILE_HEAD >= RG_REJECTS_HEAD,
               "the head read holds every marker's");

bool rg_file_marked(const char *abs, int fd)
{
    char head[FILE_HEAD];
    long n = rg_head_of(abs, fd, head, sizeof head);
    return rg_sqlitedb_owned(abs, head, n) || rg_configured_owned(abs, head, n) ||
           rg_artifact_owned(abs, head, n) || rg_texrun_owned(abs, head, n) ||
           (n > 0 && rg_report_head(head, (size_t)n));
}
