/* What every part of the readguard command shares: its exit codes and how
 * it reports an error (main.c). */
#ifndef RG_CLI_H
#define RG_CLI_H

/* Exit codes of run, as env(1) and timeout(1) use them. */
#define RG_EXIT_FAILURE 125
#define RG_EXIT_CANNOT_RUN 126
#define RG_EXIT_NOT_FOUND 127

/* Exit codes of every verb but run, as grep(1) and cmp(1) use them. */
#define RG_EXIT_OK 0
#define RG_EXIT_NO 1      /* check: a write would be refused; doctor: findings */
#define RG_EXIT_TROUBLE 2 /* bad usage, no usable session, a path that cannot be examined */

/* "readguard: <message>" on stderr, printf style. */
void rg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct option;
/* getopt_long for a verb's argv (argv[0] is the verb), whose own messages
 * ("unrecognized option") then start "readguard: VERB:" as rg_err's do. */
int rg_getopt(int argc, char **argv, const char *shorts, const struct option *longs);

struct rg_log_line;
/* Appends one line to the session log at log_path, as the shim would; a
 * log that cannot be written gets a warning, never a failed verb. */
void rg_cli_log(const char *log_path, const struct rg_log_line *l);

#endif
