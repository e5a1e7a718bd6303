/* The readguard command: one file per verb, dispatched from main.c. */
#ifndef RG_CLI_H
#define RG_CLI_H

/* Exit codes of env(1) and timeout(1). */
#define RG_EXIT_FAILURE 125
#define RG_EXIT_CANNOT_RUN 126
#define RG_EXIT_NOT_FOUND 127

int rg_cmd_run(int argc, char **argv);

/* "readguard: <message>" on stderr, printf style. */
void rg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The shim's path, found next to this executable or in ../lib/readguard/. */
int rg_find_shim(char *out, unsigned long cap);

#endif
