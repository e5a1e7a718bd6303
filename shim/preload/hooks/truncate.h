/* The truncate path, shared with syscall.c. */
#ifndef RG_HOOKS_TRUNCATE_H
#define RG_HOOKS_TRUNCATE_H

#include <sys/types.h>

int rg_hook_truncate(const char *call, const char *path, off_t length);

#endif
