/* Supervised mode as `readguard run` starts it, around the fork of the
 * command (the supervisor itself is shim/supervise/). */
#ifndef RG_CLI_SUPERVISE_H
#define RG_CLI_SUPERVISE_H

#include <sys/types.h>

enum { RG_SUPERVISE_NONE, RG_SUPERVISE_HYBRID, RG_SUPERVISE_STRICT };
/* One run's supervisor: its context and, once started, its threads. On
 * the heap, as the context is large; NULL when there is no memory. The
 * calls below take NULL at level RG_SUPERVISE_NONE. */
struct rg_supervisor;
struct rg_supervisor *rg_supervisor_new(void);
void rg_supervisor_free(struct rg_supervisor *s);
/* Attaches the session (sealing its table from the tree under --strict)
 * and sets the tree's environment. 0, or -1 after reporting. */
int rg_supervise_prepare(struct rg_supervisor *s, int level, int sv[2], const char *session);
void rg_supervise_child(int level, int sv[2]);
int rg_supervise_parent(struct rg_supervisor *s, int level, int sv[2], pid_t child);
/* The tree has exited: restamps the files it wrote through descriptors the
 * supervisor handed it, as the supervisor's reaper thread would a moment
 * later, so that the session's table knows them as the tree left them
 * before the run ends (a kept session's next write of them is its own). */
void rg_supervise_finish(const struct rg_supervisor *s);

#endif
