/* The entries the syscall() hook shares with the metadata hooks. */
#ifndef RG_HOOKS_META_H
#define RG_HOOKS_META_H

/* The link path every link hook takes. */
int rg_hook_link(const char *call, int olddir, const char *oldpath, int newdir, const char *newpath,
                 int flags);

struct rg_meta_file;
struct rg_meta_call;
/* Makes a metadata call (guard/meta.h) as its wrapper would: the libc
 * convention. One through this process's own write descriptor is made at
 * once, without entering (rg_meta_by_own_writer). */
int rg_hook_meta_call(const struct rg_meta_file *f, const struct rg_meta_call *call);

struct rg_syscall;
/* A decoded RG_OP_META call (core/syscalls.def), made as its wrapper would
 * make it: the libc convention, -1 and errno. */
long rg_hook_meta(const struct rg_syscall *sc);

#endif
