/* The lines Claude Code's SessionStart hook appends to $CLAUDE_ENV_FILE. */
#ifndef RG_CCENV_H
#define RG_CCENV_H

/* Appends to env_file what Claude Code pastes into each Bash tool command:
 * 0, or -1 with errno set. The exports reach
 * the command's children. The shell running the command has already
 * started without the shim, so it is replaced, same pid, by one that has
 * it, and that runs the whole command line again: Claude Code waits on the
 * same process, reads the same output and exit status, and finds the cwd
 * and environment it saves at the end of the line. $$ survives exec, so
 * the shell that has been replaced does not do it again. */
int rg_ccenv_write(const char *env_file, const char *table, const char *shim);

#endif
