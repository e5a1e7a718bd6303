/* What the exec family's two files share: exec.c, the hooks, and
 * execsearch.c, glibc's PATH search that three of them make. */
#ifndef RG_HOOKS_EXEC_H
#define RG_HOOKS_EXEC_H

#include "core/hot.h"
#include "preload/hook.h"

/* The raw call leaves errno alone unless it fails (and an exec that works
 * does not return): the common exec calls no __errno_location, whose page
 * and PLT entry a forked child would fault in for nothing. */
RG_START_TEXT static inline int rg_sys_execve(const char *path, char *const argv[],
                                              char *const envp[])
{
    return (int)rg_result_raw(rg_syscall6(SYS_execve, (long)path, (long)argv, (long)envp, 0, 0, 0));
}

#ifdef __GLIBC__
/* glibc's execvpe (core/pathsearch.h) for file, each name tried handed the
 * environment its program needs; hook names the caller for a notice.
 * Returns -1 with errno as glibc's would leave it. */
int rg_exec_path_search(const char *hook, const char *file, char *const argv[], char *const envp[]);
#endif

#endif
