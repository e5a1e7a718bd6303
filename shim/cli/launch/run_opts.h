/* Parsing readguard run's options into the settings of a new session. */
#ifndef RG_CLI_RUN_OPTS_H
#define RG_CLI_RUN_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/settings.h"

#define RG_RUN_MAX_IGNORES 256

struct rg_run_opts {
    struct rg_settings s;
    int supervise;
    const char *ignores[RG_RUN_MAX_IGNORES];
    size_t nignores;
    char ignore_buf[RG_IGNORES_MAX];
    const char *roots[64];
    char root_buf[64][PATH_MAX];
    char log_buf[PATH_MAX];
    const char *session; /* --session */
    bool keep;           /* --keep */
    char given[512];     /* the options given that set the table, "--mode, --log" */
};

/* Parses argv (argv[0] is "run"); returns the index of COMMAND in argv, or
 * -1 after reporting. --help prints the usage and exits. */
int rg_run_parse(int argc, char **argv, struct rg_run_opts *o);

/* After joining an existing named session: a warning naming the options
 * given that the table's own settings override, if any were. */
void rg_run_warn_joined(const char *session, const char *given);

#endif
