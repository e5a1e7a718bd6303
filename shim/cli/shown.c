#include "cli/shown.h"
#include <limits.h>

#include "core/text.h"

const char *rg_shown(const char *path)
{
    static char buf[RG_SHOWN_SLOTS][4 * PATH_MAX];
    static unsigned next;
    char *out = buf[next++ % RG_SHOWN_SLOTS];
    rg_line_escape(out, sizeof buf[0], path ? path : "?");
    return out;
}
