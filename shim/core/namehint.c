#include "core/namehint.h"

uint64_t rg_name_key(const char *name)
{
    while (name[0] == '.' && name[1] == '/')
        for (name += 2; *name == '/';)
            name++;
    /* FNV-1a, then a finaliser: the low bits pick the slot, the high ones
     * tell names in one slot apart. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    h ^= h >> 31;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 29;
    return h ? h : 1;
}

enum rg_reason rg_unread_reason(const struct rg_file *now, int64_t born_ns,
                                const struct rg_named *then)
{
    if (!then || !then->rec.found || (then->ino == now->ino && then->dev == now->dev))
        return RG_WHY_UNREAD;
    /* A file that had the name before the read would have been the one
     * read. The file system's clock is coarse: a tick of slack. */
    int64_t came = born_ns > 0 ? born_ns : now->ctime_ns;
    return came + RG_TICK_NS >= then->rec.read_ns ? RG_WHY_REPLACED : RG_WHY_UNREAD;
}
