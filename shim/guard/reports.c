#include "guard/reports.h"

#include "core/reportmark.h"
#include "guard/filehead.h"
bool rg_report_owned(const char *abs, int fd)
{
    char head[RG_REPORT_HEAD];
    long n = rg_fd_head(fd, head, sizeof head);
    if (n < 0)
        n = rg_file_head(abs, head, sizeof head);
    return n > 0 && rg_report_head(head, (size_t)n);
}
