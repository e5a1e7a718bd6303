/* The unlink path every unlink hook takes, shared with syscall.c. */
#ifndef RG_HOOKS_UNLINK_H
#define RG_HOOKS_UNLINK_H

int rg_hook_unlink(const char *call, int dirfd, const char *path, int flags);

#endif
