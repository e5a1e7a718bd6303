/* The link path every link hook takes, shared with syscall.c. */
#ifndef RG_HOOKS_META_H
#define RG_HOOKS_META_H

int rg_hook_link(const char *call, int olddir, const char *oldpath, int newdir, const char *newpath,
                 int flags);

#endif
