#include "core/request.h"
#include <fcntl.h>
#include <linux/fs.h>
#include <stddef.h>
#include <string.h>

/* O_RDONLY|O_TRUNC truncates on Linux, so O_TRUNC alone makes a write. With
 * O_PATH the kernel ignores every access and truncation flag. */
bool rg_fopen_flags(const char *mode, int *flags)
{
    int acc, extra;
    switch (mode[0]) {
    case 'r':
        acc = O_RDONLY;
        extra = 0;
        break;
    case 'w':
        acc = O_WRONLY;
        extra = O_CREAT | O_TRUNC;
        break;
    case 'a':
        acc = O_WRONLY;
        extra = O_CREAT | O_APPEND;
        break;
    default: return false;
    }
#ifdef __GLIBC__
    /* glibc reads at most six more characters and skips any it does not
     * know, ',' included: "r,+" opens O_RDWR. */
    size_t end = 7;
#else
    /* musl looks for '+', 'x' and 'e' anywhere in the mode (__fmodeflags). */
    size_t end = (size_t)-1;
#endif
    for (size_t i = 1; i < end && mode[i]; i++) {
        switch (mode[i]) {
        case '+': acc = O_RDWR; break;
        case 'x': extra |= O_EXCL; break;
        case 'e': extra |= O_CLOEXEC; break;
        default: break; /* b, m, c, t and the rest change nothing on disk */
        }
    }
    *flags = acc | extra;
    return true;
}

int rg_rename_targets(unsigned flags)
{
    if (flags & RENAME_EXCHANGE)
        return 2;
    if (flags & RENAME_NOREPLACE)
        return 0;
    return 1;
}

bool rg_rename_flags_valid(unsigned flags)
{
    if (flags & ~(unsigned)(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
        return false;
    return !((flags & RENAME_EXCHANGE) && (flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)));
}

const char *rg_op_name(enum rg_op op)
{
    switch (op) {
    case RG_OP_OPEN: return "open";
    case RG_OP_RENAME: return "rename";
    case RG_OP_TRUNCATE: return "truncate";
    case RG_OP_SPAWN_OPEN: return "spawn-open";
    case RG_OP_UNLINK: return "unlink";
    case RG_OP_LINK: return "link";
    case RG_OP_META: return "meta";
    case RG_OP_XATTR: return "xattr";
    }
    return "?";
}

static const char backup_suffixes[][6] = {"~", ".bak", ".orig", ".old"}; /* no relocations */

size_t rg_backup_base_len(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof backup_suffixes / sizeof *backup_suffixes; i++) {
        size_t s = strlen(backup_suffixes[i]);
        if (n > s && strcmp(name + n - s, backup_suffixes[i]) == 0 && name[n - s - 1] != '/')
            return n - s;
    }
    return 0;
}

bool rg_backup_name(const char *base, const char *name)
{
    size_t n = strlen(base);
    if (n == 0 || strncmp(base, name, n) != 0 || base[n - 1] == '/')
        return false;
    for (size_t i = 0; i < sizeof backup_suffixes / sizeof *backup_suffixes; i++)
        if (strcmp(name + n, backup_suffixes[i]) == 0)
            return true;
    return false;
}
