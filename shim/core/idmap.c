#include "core/idmap.h"
#include <stdlib.h>

/* One unsigned decimal field, after blanks; false if there is none or it
 * does not fit 32 bits. */
static bool field(const char **p, uint32_t *out)
{
    char *end;
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (**p < '0' || **p > '9')
        return false;
    unsigned long long v = strtoull(*p, &end, 10);
    if (v > UINT32_MAX)
        return false;
    *p = end;
    *out = (uint32_t)v;
    return true;
}

bool rg_idmap_outside(const char *text, uint32_t id, uint32_t *outside)
{
    for (const char *p = text; *p;) {
        uint32_t in, out, count;
        if (!field(&p, &in) || !field(&p, &out) || !field(&p, &count))
            return false;
        if (id >= in && (uint64_t)id - in < count) {
            *outside = out + (id - in);
            return true;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '\n' && *p != '\0')
            return false;
        if (*p == '\n')
            p++;
    }
    return false;
}
