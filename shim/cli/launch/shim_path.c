#include "cli/launch/shim_path.h"
#include <bsd/string.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RG_MULTIARCH
#define RG_MULTIARCH ""
#endif

/* Where an install puts the shim, relative to bin/: the multiarch directory
 * ld.so's $LIB names on Debian, or plain lib/ where there is none. */
#define RG_LIB_MULTI "lib/" RG_MULTIARCH "/readguard/libreadguard.so"

/* Next to the binary (a build tree), else ../lib/<multiarch>/readguard/ or
 * ../lib/readguard/ (an install). */
int rg_find_shim(char *out, unsigned long cap)
{
    static const char *const rel[] = {"libreadguard.so", "../" RG_LIB_MULTI,
                                      "../lib/readguard/libreadguard.so"};
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    slash[1] = '\0';
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
        char cand[PATH_MAX];
        strlcpy(cand, exe, sizeof cand);
        if (strlcat(cand, rel[i], sizeof cand) >= sizeof cand)
            continue;
        if (access(cand, R_OK) == 0 && realpath(cand, out) && strlen(out) < cap)
            return 0;
    }
    return -1;
}

/* A shim installed under lib/<multiarch>/ is named through ld.so's $LIB, so
 * each program looks for the shim of its own ELF class: a 32-bit program
 * then looks in lib/i386-linux-gnu/ instead of failing on a 64-bit library
 * with "wrong ELF class". */
int rg_preload_path(char *out, unsigned long cap)
{
    char shim[PATH_MAX];
    if (rg_find_shim(shim, sizeof shim) < 0)
        return -1;
    static const char tail[] = "/" RG_LIB_MULTI;
    size_t n = strlen(shim), t = sizeof tail - 1;
    if (RG_MULTIARCH[0] && n > t && strcmp(shim + n - t, tail) == 0) {
        int w = snprintf(out, cap, "%.*s/$LIB/readguard/libreadguard.so", (int)(n - t), shim);
        return w > 0 && (size_t)w < cap ? 0 : -1;
    }
    return strlcpy(out, shim, cap) < cap ? 0 : -1;
}
