/* The verbs, one file each in verbs/, dispatched from main.c. Each takes
 * its own argv (argv[0] is the verb) and returns the exit code. */
#ifndef RG_VERBS_H
#define RG_VERBS_H

int rg_cmd_run(int argc, char **argv);
int rg_cmd_env(int argc, char **argv);
int rg_cmd_end(int argc, char **argv);
int rg_cmd_status(int argc, char **argv);
int rg_cmd_reset(int argc, char **argv);
int rg_cmd_forget(int argc, char **argv);
int rg_cmd_mark(int argc, char **argv);
int rg_cmd_check(int argc, char **argv);
int rg_cmd_log(int argc, char **argv);
int rg_cmd_sessions(int argc, char **argv);
int rg_cmd_doctor(int argc, char **argv);
int rg_cmd_hook(int argc, char **argv);
int rg_cmd_history(int argc, char **argv);
int rg_cmd_undo(int argc, char **argv);
int rg_cmd_diff(int argc, char **argv);

struct rg_settings;
/* The settings that run's options and READGUARD_* variables describe, for a
 * verb that starts a session without a command (readguard env), and in
 * *given (if not NULL) the options given that set the table. NULL after
 * reporting a bad option. */
const struct rg_settings *rg_run_settings(int argc, char **argv, const char **session,
                                          const char **given);

#endif
