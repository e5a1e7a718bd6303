/* The open path every open-like hook takes, shared with stdio.c and
 * syscall.c. */
#ifndef RG_HOOKS_OPEN_H
#define RG_HOOKS_OPEN_H

#include "core/request.h"
/* Records a read-mode open already made (fd < 0: none), without entering
 * the critical section once the shim is ready: reads are most calls, and
 * recording one is reentrant, so they pay no signal-mask calls. */
void rg_hook_read_done(const struct rg_request *req, int fd);
/* Carries out req, an open, with the libc result convention. */
int rg_hook_open(const struct rg_request *req);
/* open_by_handle_at(2): a write-mode open is carried out as an open of
 * the handle's inode by /proc/self/fd, judged as any open; a read goes to
 * the kernel unrecorded. Returns the fd, or -1 with errno set. */
int rg_hook_open_by_handle(int mount_fd, void *handle, int flags);

#endif
