/* The directory a posix_spawn child will be in when its queued opens run.
 * posix_spawn_file_actions_addchdir_np and addfchdir_np queue a change of
 * directory before the opens queued after them, and the child opens a
 * relative path from there, not from the parent's working directory, where
 * the open is judged when it is queued. So each file-actions object that
 * holds a chdir is noted here with the directory it leads to, until it is
 * initialised again or destroyed. */
#ifndef RG_SPAWNDIR_H
#define RG_SPAWNDIR_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>

#define RG_SPAWN_DIRS 8

/* Guarded by a lock the caller keeps where a fork's handlers take it
 * (guard/ctx.h): the slots lie in pages a process that never spawns with
 * a chdir never touches. */
struct rg_spawn_dirs {
    /* Apart, so that a look for an object (every init and destroy of one)
     * reads one line, not a page per slot. */
    const void *fa[RG_SPAWN_DIRS]; /* NULL: a free slot */
    char dir[RG_SPAWN_DIRS][PATH_MAX];
};

/* fa's child changes to path (relative to where fa's earlier chdir led, or
 * to the working directory), or to the directory open on fd when path is
 * NULL. 0, or -ENOMEM when every slot holds another object (the chdir is
 * then not queued: an open after it could not be judged), -ENAMETOOLONG,
 * or -EBADF for an fd with no directory. */
int rg_spawn_dir_set(_Atomic int *lock, struct rg_spawn_dirs *d, const void *fa, const char *path,
                     int fd);
/* fa is initialised again or destroyed: it holds no chdir any more. */
void rg_spawn_dir_drop(_Atomic int *lock, struct rg_spawn_dirs *d, const void *fa);
/* The path fa's child opens for the relative path, in out (PATH_MAX):
 * false when path is absolute or fa holds no chdir (path is then opened
 * from the working directory, as judged). */
bool rg_spawn_dir_path(_Atomic int *lock, struct rg_spawn_dirs *d, const void *fa, const char *path,
                       char *out);

#endif
