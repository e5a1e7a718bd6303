/* A --strict tree may remove a file it never read because the journal keeps
 * it first, and keeping takes time (a copy of up to 64 MiB): long enough
 * for a supervisor handler let past the stalled one to rename the kept file
 * away and another, never kept, onto its name, which a removal by name then
 * destroys. So the name is first moved into the journal, where the tree can
 * neither rename nor remove, in one rename that takes whatever it names
 * then; only the inode kept is removed from there, anything else goes back.
 * A journal on another file system than the file cannot take it: there the
 * name is looked at again just before the removal, a window of one call. */
#include "guard/journal/remove.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdatomic.h>
#include <stdio.h>

#include "guard/journal/paths.h"
#include "os/clock.h"
#include "os/sys.h"
static bool names(int dirfd, const char *name, const struct stat *kept)
{
    struct stat st;
    return rg_sys_fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           st.st_ino == kept->st_ino && st.st_dev == kept->st_dev;
}

/* The name looked at again, then removed. */
static int remove_named(int dirfd, const char *name, const struct stat *kept)
{
    return names(dirfd, name, kept) ? rg_sys_unlinkat(dirfd, name, 0) : -EAGAIN;
}

int rg_jremove_kept(struct rg_ctx *c, int dirfd, const char *name, const struct stat *kept)
{
    /* Process-wide, as the pid beside it: unique among all the process's
     * contexts (the supervisor has one per handler thread). */
    static _Atomic unsigned seq;
    char objects_buf[RG_JPATH], index_buf[RG_JPATH], tmp[64];
    const char *objects, *index;
    rg_jpaths_get(&c->jpaths, c->table.hdr, objects_buf, index_buf, &objects, &index);
    int od = objects[0] ? rg_sys_openat(AT_FDCWD, objects, O_PATH | O_DIRECTORY | O_CLOEXEC, 0)
                        : -ENOENT;
    /* Unguessable, or a tree that planted the names (symlink is not
     * trapped) would have every removal fall back to the window. */
    snprintf(tmp, sizeof tmp, ".remove-%d-%u-%lld", (int)rg_sys_getpid(), atomic_fetch_add(&seq, 1),
             (long long)rg_now_ns());
    int r = od >= 0 ? rg_sys_renameat2(dirfd, name, od, tmp, RENAME_NOREPLACE) : od;
    if (r == 0) {
        r = names(od, tmp, kept) ? rg_sys_unlinkat(od, tmp, 0) : -EAGAIN;
        /* Another file: back where it was, as it was. */
        if (r == -EAGAIN)
            rg_sys_renameat2(od, tmp, dirfd, name, RENAME_NOREPLACE);
    } else if (r != -ENOENT && r != -ENOTDIR && r != -EISDIR) {
        r = remove_named(dirfd, name, kept);
    }
    if (od >= 0)
        rg_sys_close(od);
    return r;
}
