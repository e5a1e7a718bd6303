#include "os/session.h"
#include "core/jrecord.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "core/hot.h"
#include "core/idmap.h"
#include "core/settings.h"
#include "core/tablebind.h"
#include "core/text.h"
#include "os/clock.h"
#include "os/logfile.h"
#include "os/members.h"
#include "os/procfd.h"
#include "os/sys.h"
#include "os/tableroom.h"
/* A directory counts only if it has the room rg_table_room_need says: a
 * small /dev/shm (64 MiB in a container) is still chosen for a lazily
 * backed table of 80 MiB, which there answers as full once out of room. */
static int has_room(const char *dir, size_t size)
{
    struct statvfs vfs;
    if (access(dir, W_OK | X_OK) != 0 || statvfs(dir, &vfs) != 0)
        return 0;
    return (unsigned long long)vfs.f_bavail * vfs.f_frsize >= size;
}

/* A new table file at path (O_EXCL), its room taken, or -errno with
 * nothing left: a file system without the room fails here, with a reason,
 * not later, by SIGBUS in the session's processes. */
static int create_sized(const char *path, uint32_t capacity)
{
    int fd =
        rg_sys_openat(AT_FDCWD, path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return fd;
    int r = rg_sys_ftruncate(fd, (off_t)rg_table_file_size(capacity));
    if (r == 0)
        r = rg_table_room_take(fd, capacity);
    if (r < 0) {
        rg_sys_close(fd);
        rg_sys_unlinkat(AT_FDCWD, path, 0);
        return r;
    }
    return fd;
}

static int create_in(const char *dir, uint32_t capacity, char *path, size_t cap)
{
    unsigned char rnd[8];
    if (rg_sys_getrandom(rnd, sizeof rnd) != (long)sizeof rnd)
        return -EIO;
    /* Absolute: every process of the session is handed this path, and one
     * in another directory would find no table by a relative one, and fail
     * closed for its own directory only. */
    char cwd[PATH_MAX] = "";
    if (dir[0] != '/' && !getcwd(cwd, sizeof cwd))
        return -errno;
    int n = snprintf(path, cap, "%s%s%s/readguard-%u-%02x%02x%02x%02x%02x%02x%02x%02x", cwd,
                     cwd[0] && cwd[1] ? "/" : "", dir, (unsigned)rg_sys_geteuid(), rnd[0], rnd[1],
                     rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    if (n < 0 || (size_t)n >= cap)
        return -ENAMETOOLONG;
    return create_sized(path, capacity);
}

/* The log of a session whose table is at table_path, when --log names
 * none: in the state directory, by the table's name, else beside the
 * table. */
static void default_log(const char *table_path, char *out, size_t cap)
{
    const char *name = strrchr(table_path, '/');
    name = name ? name + 1 : table_path;
    int n = rg_state_dir(out, cap);
    if (n < 0 || snprintf(out + n, cap - (size_t)n, "/%s.log", name) >= (int)(cap - (size_t)n))
        snprintf(out, cap, "%s.log", table_path);
}

/* Maps a new, sized table file, writes its header and closes fd. path is
 * the table's name, which names its default log; file is where it is now,
 * removed again if that fails. */
static int format_table(int fd, size_t size, const struct rg_settings *s, int32_t creator,
                        const char *path, const char *file, char *err, size_t errcap)
{
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    rg_sys_close(fd);
    if (map == MAP_FAILED) {
        int e = errno;
        rg_sys_unlinkat(AT_FDCWD, file, 0);
        snprintf(err, errcap, "cannot map the session table: %s", strerror(e));
        return -e;
    }
    char log[RG_LOG_PATH_MAX], journal[RG_LOG_PATH_MAX];
    struct rg_settings with_log = *s;
    if (!s->log_path) {
        default_log(path, log, sizeof log);
        with_log.log_path = log;
        /* Made now, by the session's maker: a process of the session
         * with another HOME or XDG_STATE_HOME (a tool that sets them) may
         * append to the session's log but never makes a directory outside
         * its own state directory. A failure is told at the first line. */
        rg_log_dir_make(log);
    }
    if (!s->journal_dir) {
        rg_session_default_journal(journal, sizeof journal);
        with_log.journal_dir = journal;
    }
    if (!s->journal_max_file) {
        const char *env = getenv(RG_ENV_JOURNAL_MAX_FILE);
        int64_t v = env && *env ? rg_size_parse(env) : -1;
        with_log.journal_max_file = v >= 0 ? v : RG_JOURNAL_FILE_MAX;
    }
    with_log.creator_pidns = rg_pidns_self();
    int r = rg_table_format(map, size, &with_log, rg_sys_geteuid(), creator, rg_now_ns());
    /* The maker's descriptors are its tree's: a launcher's, which it
     * hands on, or a preloaded program's own. */
    if (r == 0)
        rg_outputs_note(map);
    munmap(map, size);
    if (r < 0) {
        rg_sys_unlinkat(AT_FDCWD, file, 0);
        snprintf(err, errcap, "cannot write the session settings: %s",
                 r == -ENAMETOOLONG ? "the roots or the log path are too long" : strerror(-r));
    }
    return r;
}

int rg_session_create(const struct rg_settings *s, int32_t creator, char *path, size_t cap,
                      char *err, size_t errcap, struct rg_exec_wait *wait)
{
    size_t size = rg_table_file_size(s->capacity), need = rg_table_room_need(s->capacity);
    const char *dirs[] = {getenv(RG_ENV_DIR), "/dev/shm", getenv("XDG_RUNTIME_DIR"), "/tmp"};
    int fd = -ENOSPC;
    bool named = false;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs && fd < 0; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        /* An explicit directory is used as given, or the creation fails. */
        if (i > 0 && !has_room(dirs[i], need))
            continue;
        rg_session_prune(dirs[i], wait);
        fd = create_in(dirs[i], s->capacity, path, cap);
        named = i == 0;
        if (named)
            break;
    }
    /* The variable, when it chose the directory: else a typo in it reads
     * as a fault of readguard's. */
    /* The room its creation takes, only when room is what lacked: the file's
     * size (80 MiB, sparse) would send a user to free room it never needs. */
    if (fd < 0) {
        char room[96] = "";
        if (fd == -ENOSPC)
            snprintf(room, sizeof room, " (a table takes %zu %ciB to begin%s)",
                     need >> (need >> 20 ? 20 : 10), need >> 20 ? 'M' : 'K',
                     named ? "" : ", in /dev/shm, $XDG_RUNTIME_DIR or /tmp");
        snprintf(err, errcap, "cannot create a session table%s%s%s: %s%s",
                 named ? " in " RG_ENV_DIR " '" : "", named ? dirs[0] : "", named ? "'" : "",
                 strerror(-fd), room);
        return fd;
    }
    return format_table(fd, size, s, creator, path, path, err, errcap);
}

/* Puts a formatted table at path unless something is there already: a
 * table appears whole or not at all, so a launcher joining at that instant
 * never attaches one half written. */
static int publish(const char *tmp, const char *path)
{
    int r = rg_sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE);
    if (r == -EINVAL) { /* a file system without RENAME_NOREPLACE */
        r = rg_sys_linkat(AT_FDCWD, tmp, AT_FDCWD, path, 0);
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    } else if (r < 0) {
        rg_sys_unlinkat(AT_FDCWD, tmp, 0);
    }
    return r;
}

int rg_session_create_at(const struct rg_settings *s, int32_t creator, const char *path, char *err,
                         size_t errcap)
{
    size_t size = rg_table_file_size(s->capacity);
    char tmp[PATH_MAX];
    unsigned char rnd[4];
    int fd = -EIO, n = -1;
    if (rg_sys_getrandom(rnd, sizeof rnd) == (long)sizeof rnd)
        n = snprintf(tmp, sizeof tmp, "%s.new-%02x%02x%02x%02x", path, rnd[0], rnd[1], rnd[2],
                     rnd[3]);
    if (n >= 0)
        fd = (size_t)n < sizeof tmp ? create_sized(tmp, s->capacity) : -ENAMETOOLONG;
    if (fd >= 0) {
        int r = format_table(fd, size, s, creator, path, tmp, err, errcap);
        if (r < 0)
            return r;
        fd = publish(tmp, path);
    }
    if (fd < 0)
        snprintf(err, errcap, "cannot create the session table '%s': %s", path, strerror(-fd));
    return fd < 0 ? fd : 0;
}

/* The uid the table's creator saw for this process's user: its own, or,
 * inside a user namespace (unshare -Ur), the one its uid maps to outside.
 * The file's owner, which fstat shows through the same mapping, has already
 * said the file is this user's; the header must agree. */
RG_START_TEXT static uint32_t creator_view_uid(const struct rg_header *h, uint32_t me)
{
    uint32_t outside;
    char text[4096];
    if (h->uid == me)
        return me;
    int fd = rg_sys_openat(AT_FDCWD, "/proc/self/uid_map", O_RDONLY | O_CLOEXEC, 0);
    long n = fd >= 0 ? rg_sys_read(fd, text, sizeof text - 1) : -1;
    if (fd >= 0)
        rg_sys_close(fd);
    if (n <= 0)
        return me;
    text[n] = '\0';
    return rg_idmap_outside(text, me, &outside) ? outside : me;
}

/* Whose is the table at path, that this user may not open: another user's
 * (RG_TABLE_OTHER_USER), in a directory of another user's that this one
 * may not enter (RG_TABLE_OTHER_USERS_DIR: a per-user runtime directory,
 * 0700), or NULL where neither look says. */
static const char *other_users(const char *path)
{
    struct stat st;
    uint32_t me = rg_sys_geteuid();
    int r = rg_sys_fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW);
    if (r == 0)
        return st.st_uid != me ? RG_TABLE_OTHER_USER : NULL;
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (r != -EACCES || !slash || (size_t)(slash - path) >= sizeof dir)
        return NULL;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    return rg_sys_fstatat(AT_FDCWD, slash == path ? "/" : dir, &st, 0) == 0 && st.st_uid != me
               ? RG_TABLE_OTHER_USERS_DIR
               : NULL;
}

/* Why the table file at path could not be opened (fd, -errno), in a
 * user's words. A process that changed user (root's su, setpriv) inside
 * a session gets EACCES on its creator's table (mode 0600), or on the
 * directory that holds it: a look at the owner, which the directory above
 * usually allows, says so for certain. */
static const char *open_refusal(int fd, const char *path)
{
    const char *whose;
    switch (fd) {
    case -ENOENT: return "it does not exist; has the session ended?";
    case -ELOOP: return "it is a symbolic link";
    case -EISDIR: return "it is a directory";
    case -EACCES:
    case -EPERM:
        whose = other_users(path);
        return whose ? whose : "it cannot be opened: permission denied; is it another user's?";
    default: return "it cannot be opened";
    }
}

/* Why the file open at fd is no table of this user's (me) to map, or NULL,
 * with its st filled in. Raw calls: every process that joins a session
 * comes here once, many only at exit, where each libc function would be
 * bound lazily. */
static const char *file_refusal(int fd, uint32_t me, struct stat *st)
{
    if (rg_sys_fstat(fd, st) != 0)
        return "it cannot be examined";
    if (!S_ISREG(st->st_mode))
        return "it is not a regular file";
    if (st->st_uid != me)
        return RG_TABLE_OTHER_USER;
    if ((size_t)st->st_size < RG_HEADER_SIZE)
        return "it is too small to be a session table";
    /* Checked before mapping: a huge sparse file costs nothing to make. */
    if ((uint64_t)st->st_size > rg_table_file_size(RG_MAX_CAPACITY))
        return "it is too large to be a session table";
    return NULL;
}

RG_START_TEXT const char *rg_session_attach(const char *path, struct rg_table *t)
{
    /* O_NONBLOCK: a FIFO named as the table must not hang the process. */
    int fd = rg_sys_openat(AT_FDCWD, path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0);
    if (fd < 0)
        return open_refusal(fd, path);
    struct stat st;
    uint32_t me = rg_sys_geteuid();
    const char *why = file_refusal(fd, me, &st);
    if (why) {
        rg_sys_close(fd);
        return why;
    }
    size_t size = (size_t)st.st_size;
    void *map = rg_sys_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    rg_sys_close(fd);
    if (map == MAP_FAILED)
        return "it cannot be mapped";
    why = rg_table_validate(map, size, creator_view_uid(map, me));
    /* On the fstat above: no call added to a process's start. Last, so that
     * a file that is no table is named as such. */
    if (!why && rg_tablebind_check(getenv(RG_ENV_SESSION_FILE), path, st.st_dev, st.st_ino) ==
                    RG_BIND_MISMATCH)
        why = "another file than the session's is at its path (" RG_ENV_SESSION_FILE
              " names the session's): was its directory moved away and a table put there?";
    if (why) {
        rg_sys_munmap(map, size);
        return why;
    }
    rg_table_bind(t, map, size);
    t->back = rg_table_room_back;
    t->dev = st.st_dev;
    t->ino = st.st_ino;
    return NULL;
}

RG_START_TEXT void rg_session_detach(struct rg_table *t)
{
    if (t->hdr)
        rg_sys_munmap(t->hdr, t->map_size);
    t->hdr = NULL;
}

void rg_session_default_journal(char *out, size_t cap)
{
    int n = rg_state_dir(out, cap);
    if (n >= 0 && snprintf(out + n, cap - (size_t)n, "/journal") >= (int)(cap - (size_t)n))
        out[0] = '\0';
}
