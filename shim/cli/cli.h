/* The readguard command: one file per verb, dispatched from main.c. */
#ifndef RG_CLI_H
#define RG_CLI_H

#include <stdint.h>
#include <sys/types.h>

/* Exit codes of env(1) and timeout(1). */
#define RG_EXIT_FAILURE 125
#define RG_EXIT_CANNOT_RUN 126
#define RG_EXIT_NOT_FOUND 127

int rg_cmd_run(int argc, char **argv);

struct rg_settings;
/* The settings that run's options and READGUARD_* variables describe, for a
 * verb that starts a session without a command (readguard env). NULL after
 * reporting a bad option. */
const struct rg_settings *rg_run_settings(int argc, char **argv, const char **session);

/* readguard run --session PATH: joins the session at PATH, or creates it
 * there with s, owned by owner (or taken over by owner if its owner is
 * gone). Writes the absolute path to out. Returns 1 if it created the
 * session, 0 if it joined one, -1 after reporting. */
int rg_session_open_named(const char *path, const struct rg_settings *s, int32_t owner,
                          char *out, unsigned long cap);

/* Supervised mode, around the fork of `run` (supervise.c). */
enum { RG_SUPERVISE_NONE, RG_SUPERVISE_HYBRID, RG_SUPERVISE_STRICT };
int rg_supervise_prepare(int level, int sv[2]);
void rg_supervise_child(int level, int sv[2]);
int rg_supervise_parent(int level, int sv[2], const char *session, int child);

/* readguard run's command tree (tree.c): forward the signals readguard gets
 * to the command, exec it (in the child; exits 126/127 on failure), and wait
 * for the whole tree, returning the command's status as env(1) does. */
void rg_tree_forward_signals(void);
void rg_tree_exec(char **cmd) __attribute__((noreturn));
int rg_tree_wait(pid_t child);

/* "readguard: <message>" on stderr, printf style. */
void rg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The shim's path, found next to this executable or in ../lib/readguard/. */
int rg_find_shim(char *out, unsigned long cap);
/* The environment for readguard run's exec of FILE: the shim its loader can
 * load, or none (handoff.c). */
char **rg_handoff_env(const char *file);
/* What to put in LD_PRELOAD for it: the path, with $LIB for an install. */
int rg_preload_path(char *out, unsigned long cap);

#endif
