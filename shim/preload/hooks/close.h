/* Descriptor ends, shared with syscall.c: libuv (node, npm) closes with
 * syscall(SYS_close), and a write that ends so must be restamped too. */
#ifndef RG_HOOKS_CLOSE_H
#define RG_HOOKS_CLOSE_H

int rg_hook_close(int fd);
int rg_hook_dup3(int oldfd, int newfd, int flags);
int rg_hook_dup2(int oldfd, int newfd);
int rg_hook_close_range(unsigned first, unsigned last, int flags);

#endif
