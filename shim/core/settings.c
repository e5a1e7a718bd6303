#include "core/settings.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rg_mode_parse(const char *s)
{
    if (strcmp(s, "enforce") == 0)
        return RG_MODE_ENFORCE;
    if (strcmp(s, "warn") == 0)
        return RG_MODE_WARN;
    return -1;
}

const char *rg_mode_name(enum rg_mode m) { return m == RG_MODE_WARN ? "warn" : "enforce"; }

uint32_t rg_capacity_parse(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || s[0] == '-')
        return 0;
    if (v > RG_MAX_CAPACITY) /* before a suffix can wrap it around */
        return 0;
    if (*end == 'k' || *end == 'K')
        v *= 1000, end++;
    else if (*end == 'M')
        v *= 1000000, end++;
    if (*end || v < RG_MIN_CAPACITY || v > RG_MAX_CAPACITY)
        return 0;
    return (uint32_t)v;
}

int64_t rg_size_parse(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || s[0] == '-')
        return -1;
    /* Either case, as 'k' always was: "64m" is no other size than "64M". */
    int shift = *end == 'K' || *end == 'k'   ? 10
                : *end == 'M' || *end == 'm' ? 20
                : *end == 'G' || *end == 'g' ? 30
                                             : 0;
    if (shift)
        end++;
    /* The limit is on bytes, after the suffix: 2^34 + 1 G wraps to 1 G. */
    if (*end || v > (1ULL << 50) >> shift)
        return -1;
    return (int64_t)(v << shift);
}

bool rg_table_name(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || strlen(name + n) != 16)
        return false;
    return strspn(name + n, "0123456789abcdef") == 16;
}

bool rg_hook_id_usable(const char *id)
{
    if (!*id)
        return false;
    for (; *id; id++)
        if (!(*id >= 'a' && *id <= 'z') && !(*id >= 'A' && *id <= 'Z') &&
            !(*id >= '0' && *id <= '9') && *id != '-' && *id != '_')
            return false;
    return true;
}

bool rg_hook_table_name(const char *name)
{
    size_t n = sizeof RG_HOOK_TABLE_PREFIX - 1;
    return strncmp(name, RG_HOOK_TABLE_PREFIX, n) == 0 && rg_hook_id_usable(name + n);
}
