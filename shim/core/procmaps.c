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

#define PF_EXITING 0x00000004 /* include/linux/sched.h */
#define PF_KTHREAD 0x00200000

bool rg_stat_may_exec(const char *stat)
{
    /* Fields are counted from the name's closing parenthesis: the name may
     * hold spaces and parentheses. The state is field 3, the flags 9. */
    const char *p = strrchr(stat, ')');
    if (!p || p[1] != ' ' || p[2] == '\0' || p[2] == 'Z' || p[2] == 'X')
        return false;
    for (int field = 2; p && field < 9; field++)
        p = strchr(p + 1, ' ');
    unsigned long long flags;
    if (!p || !number(&(const char *){p + 1}, 10, ' ', &flags))
        return false;
    return !(flags & (PF_KTHREAD | PF_EXITING));
}
