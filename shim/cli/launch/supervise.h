/* Supervised mode as `readguard run` starts it, around the fork of the
 * command (the supervisor itself is shim/supervise/). */
#ifndef RG_CLI_SUPERVISE_H
#define RG_CLI_SUPERVISE_H

#include <sys/types.h>

enum { RG_SUPERVISE_NONE, RG_SUPERVISE_HYBRID, RG_SUPERVISE_STRICT };
/* Attaches the session (sealing its table from the tree under --strict)
 * and sets the tree's environment. 0, or -1 after reporting. */
int rg_supervise_prepare(int level, int sv[2], const char *session);
void rg_supervise_child(int level, int sv[2]);
int rg_supervise_parent(int level, int sv[2], pid_t child);
/* The tree has exited: restamps the files it wrote through descriptors the
 * supervisor handed it, as the supervisor's reaper thread would a moment
 * later, so that the session's table knows them as the tree left them
 * before the run ends (a kept session's next write of them is its own). */
void rg_supervise_finish(void);

#endif
