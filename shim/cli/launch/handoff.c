/* readguard run's own exec of the command makes the choice the shim's exec
 * hooks make for every later one (preload/handoff.c, rg_exec_choose): the build of
 * the shim the command's loader can load, or none, named when it runs
 * unguarded. `readguard run -- ./musl-prog` must start. */
#include "cli/launch/handoff.h"
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launch/shim_path.h"
#include "core/envp.h"
#include "core/settings.h"
#include "guard/unguarded.h"
#include "os/exec_target.h"
#include "os/session.h"
extern char **environ;

/* musl's build beside glibc's, if it was built (make musl). */
static bool musl_beside(const char *glibc_file, char *out, size_t cap)
{
    const char *slash = strrchr(glibc_file, '/');
    int n = slash ? snprintf(out, cap, "%.*s/musl/libreadguard.so", (int)(slash - glibc_file),
                             glibc_file)
                  : -1;
    return n > 0 && (size_t)n < cap && access(out, R_OK) == 0;
}

char **rg_handoff_env(const char *file)
{
    char path[PATH_MAX], preload[PATH_MAX], file_of[PATH_MAX], musl[PATH_MAX];
    if (rg_preload_path(preload, sizeof preload) < 0 || rg_find_shim(file_of, sizeof file_of) < 0)
        return environ;
    const char *g = preload, *m = NULL;
    if (rg_shim_libc(preload, strlen(preload)) == RG_LIBC_MUSL)
        m = preload, g = NULL;
    else if (musl_beside(file_of, musl, sizeof musl))
        m = musl;
    struct rg_target t;
    bool found = rg_exec_search(file, path, sizeof path);
    /* No cache: the one exec of readguard run's child. */
    rg_exec_target(NULL, AT_FDCWD, found ? path : NULL, 0, &t);
    struct rg_env_need need = {NULL, getenv(RG_ENV_SESSION), RG_LIBC_GLIBC, NULL};
    bool guarded = rg_env_choose(&need, t.kind, t.native, g ? RG_LIBC_GLIBC : RG_LIBC_MUSL, g, m);
    const char *sv = getenv(RG_ENV_SUPERVISED);
    if (!guarded && !(sv && *sv)) {
        struct rg_unguarded u = {path, "execvp", "readguard", t.kind, t.dev, t.ino};
        rg_unguarded_notice(NULL, need.session, &u, STDERR_FILENO);
    }
    if (rg_envp_complete(environ, &need))
        return environ;
    size_t n = 0;
    while (environ[n])
        n++;
    size_t slots = n + RG_ENV_ADDS + 1, bytes = 4 * PATH_MAX + 64;
    const char *old = getenv("LD_PRELOAD");
    bytes += old ? strlen(old) : 0;
    char **out = malloc(slots * sizeof *out + bytes);
    if (!out || rg_envp_build(environ, &need, out, slots, (char *)(out + slots), bytes) < 0)
        return environ; /* the loader then says what it cannot load */
    return out;
}
