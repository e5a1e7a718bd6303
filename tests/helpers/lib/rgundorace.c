/*
 * librgundorace: preloaded into `readguard undo`, it plays a hostile tree
 * at the one instant a race needs, so the race is run every time, not
 * hoped for. RG_T_RACE says which (once each):
 *
 *   stage=PATH   once undo has made its staged symbolic link (a name with
 *                ".rg-undo-"), replaces it by a hard link to PATH
 *   move=PATH    the same, by PATH itself, renamed there
 *   swap=TARGET  just before undo's RENAME_EXCHANGE, replaces the file it
 *                exchanges with (if any) by a symbolic link to TARGET
 *
 * RG_T_NOEXCHANGE=1 has every RENAME_EXCHANGE fail as on a file system
 * without it (EINVAL), for undo's rename fallback.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *race(const char *what)
{
    const char *r = getenv("RG_T_RACE");
    size_t n = strlen(what);
    return r && strncmp(r, what, n) == 0 && r[n] == '=' ? r + n + 1 : NULL;
}

int symlinkat(const char *target, int dir, const char *name)
{
    static int done;
    int (*real)(const char *, int, const char *) =
        (int (*)(const char *, int, const char *))dlsym(RTLD_NEXT, "symlinkat");
    int r = real(target, dir, name);
    const char *victim = race("stage"), *moved = race("move");
    if (r == 0 && (victim || moved) && !done && strstr(name, ".rg-undo-")) {
        done = 1;
        if (victim && (unlinkat(dir, name, 0) != 0 || linkat(AT_FDCWD, victim, dir, name, 0) != 0))
            perror("librgundorace: stage");
        if (moved && renameat(AT_FDCWD, moved, dir, name) != 0)
            perror("librgundorace: move");
    }
    return r;
}

int renameat2(int od, const char *on, int nd, const char *nn, unsigned flags)
{
    static int done;
    int (*real)(int, const char *, int, const char *, unsigned) =
        (int (*)(int, const char *, int, const char *, unsigned))dlsym(RTLD_NEXT, "renameat2");
    const char *target = race("swap");
    if (target && !done && (flags & RENAME_EXCHANGE)) {
        done = 1;
        (void)unlinkat(nd, nn, 0);
        if (symlinkat(target, nd, nn) != 0)
            perror("librgundorace: swap");
    }
    if ((flags & RENAME_EXCHANGE) && getenv("RG_T_NOEXCHANGE")) {
        errno = EINVAL;
        return -1;
    }
    return real(od, on, nd, nn, flags);
}
