/* The rename path every rename hook takes, shared with syscall.c. */
#ifndef RG_HOOKS_RENAME_H
#define RG_HOOKS_RENAME_H

int rg_hook_rename(const char *call, int olddir, const char *oldpath, int newdir,
                   const char *newpath, unsigned flags);

#endif
