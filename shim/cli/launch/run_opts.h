/* Parsing readguard run's options into the settings of a new session. */
#ifndef RG_CLI_RUN_OPTS_H
#define RG_CLI_RUN_OPTS_H

#include "cli/launch/run_values.h"

/* Parses argv (argv[0] is "run"); returns the index of COMMAND in argv, or
 * -1 after reporting. --help prints the usage and exits. */
int rg_run_parse(int argc, char **argv, struct rg_run_opts *o);

/* After joining an existing named session: a warning naming the options
 * given that the table's own settings override, if any were. */
void rg_run_warn_joined(const char *session, const char *given);

#endif
