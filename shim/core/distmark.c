#include "core/distmark.h"
#include <string.h>

static const struct {
    char ext[sizeof ".tar.bz2"];
    char magic[RG_DIST_HEAD];
    size_t magic_len;
} kinds[] = {
    {".tar.gz", "\x1f\x8b\x08", 3},
    {".tgz", "\x1f\x8b\x08", 3},
    /* xz's sixth byte is the NUL the literal ends in. */
    {".tar.xz", "\xfd\x37\x7a\x58\x5a", 6},
    {".tar.bz2", "BZh", 3},
    {".tar.zst", "\x28\xb5\x2f\xfd", 4},
};

static bool digit(char ch) { return ch >= '0' && ch <= '9'; }

/* NAME-VERSION: a '-' after a first byte, then a digit, or 'v' and a digit
 * (yarn 1's NAME-vVERSION). A name such as notes.tar.gz or backup-old.tgz
 * is no release. Yarn 2 and later name theirs package.tgz, whatever the
 * package. */
static bool name_version(const char *stem, size_t len)
{
    if (len == sizeof "package" - 1 && memcmp(stem, "package", len) == 0)
        return true;
    for (size_t i = 1; i + 1 < len; i++)
        if (stem[i] == '-' &&
            (digit(stem[i + 1]) || (stem[i + 1] == 'v' && i + 2 < len && digit(stem[i + 2]))))
            return true;
    return false;
}

bool rg_dist_tarball(const char *name, const char *head, size_t n)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t ext = strlen(kinds[i].ext);
        if (len <= ext || strcmp(name + len - ext, kinds[i].ext) != 0)
            continue;
        return name_version(name, len - ext) && n >= kinds[i].magic_len &&
               memcmp(head, kinds[i].magic, kinds[i].magic_len) == 0;
    }
    return false;
}
