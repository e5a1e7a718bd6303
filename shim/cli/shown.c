#include "cli/shown.h"
#include <limits.h>
#include <stdio.h>

#include "core/text.h"

const char *rg_shown_n(const char *path, size_t n)
{
    char slice[PATH_MAX];
    snprintf(slice, sizeof slice, "%.*s", (int)(n < sizeof slice ? n : sizeof slice - 1), path);
    return rg_shown(slice);
}

const char *rg_shown(const char *path)
{
    /* Static by design, as strerror's: shown.h says why that is safe. */
    static char buf[RG_SHOWN_SLOTS][4 * PATH_MAX];
    static unsigned next;
    char *out = buf[next++ % RG_SHOWN_SLOTS];
    rg_line_escape(out, sizeof buf[0], path ? path : "?");
    return out;
}
