#include "core/procmaps.h"
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

/* One field of digits in base, ended by stop; strtoull alone would take
 * blanks and a sign before it. */
static bool number(const char **p, int base, char stop, unsigned long long *out)
{
    char *end;
    if (!((**p >= '0' && **p <= '9') || (base == 16 && **p >= 'a' && **p <= 'f')))
        return false;
    *out = strtoull(*p, &end, base);
    if (*end != stop && !(stop == ' ' && *end == '\0'))
        return false;
    *p = *end ? end + 1 : end;
    return true;
}

/* Past the next space: the start-end range and the offset are not read. */
static bool skip_field(const char **p)
{
    const char *space = strchr(*p, ' ');
    *p = space ? space + 1 : *p;
    return space != NULL;
}

bool rg_maps_line(const char *line, struct rg_mapping *m)
{
    const char *p = line;
    unsigned long long maj, min, ino;
    if (!skip_field(&p) || strnlen(p, 5) < 5 || p[4] != ' ')
        return false;
    memcpy(m->perms, p, 4);
    m->perms[4] = '\0';
    p += 5;
    if (!skip_field(&p) || !number(&p, 16, ':', &maj) || !number(&p, 16, ' ', &min) ||
        !number(&p, 10, ' ', &ino))
        return false;
    while (*p == ' ')
        p++;
    m->dev = makedev((unsigned)maj, (unsigned)min);
    m->ino = ino;
    m->path = p;
    return true;
}
