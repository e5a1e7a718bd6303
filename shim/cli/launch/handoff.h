/* readguard run's own exec of the command: the environment that hands it the
 * shim its loader can load, or none. */
#ifndef RG_CLI_HANDOFF_H
#define RG_CLI_HANDOFF_H

/* The environment for readguard run's exec of FILE (see handoff.c). */
char **rg_handoff_env(const char *file);

#endif
