#include <bsd/string.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Next to the binary (a build tree), else ../lib/readguard/ (an install). */
int rg_find_shim(char *out, unsigned long cap)
{
    static const char *const rel[] = {"libreadguard.so", "../lib/readguard/libreadguard.so"};
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
