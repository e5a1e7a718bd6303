/* Pruning: removing this user's session tables whose session has ended,
 * which their creators could not remove themselves (an _exit, a SIGKILL).
 * The tables of other sessions, unlike the rest of session.c's, which is
 * about this process's own. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/settings.h"
#include "core/table.h"
#include "os/members.h"
#include "os/session.h"
#include "os/sys.h"
/* Is the creator of the table with header h gone? By its pid, from its
 * own PID namespace; from another, only when no process is left in
 * that namespace. */
static bool creator_gone(const struct rg_header *h, uint64_t pidns)
{
    if (h->creator_pidns == 0 || h->creator_pidns == pidns)
        return kill(rg_header_owner(h), 0) != 0 && errno == ESRCH;
    return rg_pidns_gone(h->creator_pidns);
}

/* Has the session of table dir/name ended: its creator gone, and no
 * process of its tree left (a launcher killed with SIGKILL leaves its
 * children on the table)? */
static bool session_ended(int dirfd, const char *dir, const char *name, uint64_t pidns,
                          struct rg_exec_wait *wait)
{
    struct rg_header h;
    struct stat st;
    int fd = rg_sys_openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0);
    if (fd < 0)
        return false;
    bool gone = rg_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                st.st_uid == rg_sys_geteuid() && pread(fd, &h, sizeof h, 0) == (ssize_t)sizeof h &&
                memcmp(h.magic, RG_MAGIC, sizeof h.magic) == 0 && rg_header_owner(&h) > 0 &&
                creator_gone(&h, pidns);
    rg_sys_close(fd);
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    return gone && n > 0 && (size_t)n < sizeof path &&
           !rg_session_has_members(path, st.st_dev, st.st_ino, false, wait);
}

int rg_session_prune(const char *dir, struct rg_exec_wait *wait)
{
    char prefix[32];
    int n = 0, dfd = rg_sys_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0)
        return 0;
    snprintf(prefix, sizeof prefix, "readguard-%u-", (unsigned)rg_sys_geteuid());
    uint64_t pidns = rg_pidns_self();
    char buf[4096];
    long got;
    while ((got = rg_syscall6(SYS_getdents64, dfd, (long)buf, sizeof buf, 0, 0, 0)) > 0) {
        for (long off = 0; off < got;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            bool table = rg_table_name(d->d_name, prefix) || rg_hook_table_name(d->d_name);
            if (table && session_ended(dfd, dir, d->d_name, pidns, wait) &&
                rg_sys_unlinkat(dfd, d->d_name, 0) == 0)
                n++;
            off += d->d_reclen;
        }
    }
    rg_sys_close(dfd);
    return n;
}
