/* readguard run's command tree: forward the signals readguard gets to the
 * command, exec it, and wait for it. */
#ifndef RG_TREE_H
#define RG_TREE_H

#include <stdbool.h>
#include <sys/types.h>

void rg_tree_forward_signals(void);
/* In the child: execs cmd, with preload adding the shim the command can
 * load to its environment (a --strict tree gets none). Exits 126/127 on
 * failure, as env(1) does. */
void rg_tree_exec(char **cmd, bool preload) __attribute__((noreturn));
/* The command's status, as env(1) returns it, once the command has exited
 * and, if whole, the rest of the tree too; *rest: some of it still runs. */
int rg_tree_wait(pid_t child, bool whole, bool *rest);

#endif
