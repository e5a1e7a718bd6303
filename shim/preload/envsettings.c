#include "preload/envsettings.h"
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/text.h"

/* The refusal names the range, as --capacity's error does: a reason is a
 * constant string, so the bounds are written out, and held to the table's. */
_Static_assert(RG_MIN_CAPACITY == 16 && RG_MAX_CAPACITY == 67108864,
               "READGUARD_CAPACITY's message states the table's bounds");

const char *rg_env_settings(struct rg_settings *s, char log[RG_LOG_PATH_MAX])
{
    const char *mode = getenv(RG_ENV_MODE), *cap = getenv(RG_ENV_CAPACITY);
    if (mode && *mode && rg_mode_parse(mode) < 0)
        return "READGUARD_MODE is neither 'enforce' nor 'warn'";
    if (mode && *mode)
        s->mode = (enum rg_mode)rg_mode_parse(mode);
    if (cap && *cap && !(s->capacity = rg_capacity_parse(cap)))
        return "READGUARD_CAPACITY is not a number of files from 16 to 67108864 (k and M count "
               "thousands and millions)";
    const char *jmax = getenv(RG_ENV_JOURNAL_MAX_FILE);
    if (jmax && *jmax && (s->journal_max_file = rg_size_parse(jmax)) <= 0)
        return "READGUARD_JOURNAL_MAX_FILE is not a positive size in bytes (K, M or G)";
    const char *path = getenv(RG_ENV_LOG);
    s->log_path = NULL;
    if (!path || !*path)
        return NULL;
    /* Every process of the session opens the log from its own directory. */
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || !rg_path_join(log, RG_LOG_PATH_MAX, cwd, path))
        return "READGUARD_LOG is not a usable path (too long?)";
    s->log_path = log;
    return NULL;
}
