/* Supervised mode as `readguard run` starts it, around the fork of the
 * command (the supervisor itself is shim/supervise/). */
#ifndef RG_CLI_SUPERVISE_H
#define RG_CLI_SUPERVISE_H

#include <sys/types.h>

enum { RG_SUPERVISE_NONE, RG_SUPERVISE_HYBRID, RG_SUPERVISE_STRICT };
int rg_supervise_prepare(int level, int sv[2]);
void rg_supervise_child(int level, int sv[2]);
int rg_supervise_parent(int level, int sv[2], const char *session, pid_t child);

#endif
