#include "guard/journal/index.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/report.h"
#include "core/text.h"
#include "guard/log.h"
#include "os/clock.h"
#include "os/errname.h"
#include "os/logfile.h"
#include "os/sys.h"
int rg_jdir_make(const char *dir)
{
    char p[RG_JPATH];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1;; s++)
        if (*s == '/' || !*s) {
            char end = *s;
            *s = '\0';
            long r = rg_syscall6(SYS_mkdirat, AT_FDCWD, (long)p, 0700, 0, 0, 0);
            if (r < 0 && r != -EEXIST)
                return (int)r;
            if (!end)
                return 0;
            *s = '/';
        }
}

int rg_jset_aside(const char *path) { return rg_log_set_aside(path); }

static int32_t actor_pid(const struct rg_ctx *c)
{
    return c->actor ? c->actor->pid : (int32_t)rg_sys_getpid();
}

static void fill_record(const struct rg_jkeep *k, struct rg_jrecord *r)
{
    const struct stat *st = k->st;
    *r = (struct rg_jrecord){
        .time_ns = rg_now_ns(),
        .pid = (int)actor_pid(k->c),
        .prog = rg_log_actor_prog(k->c),
        .op = k->op,
        .call = k->req->call,
        .path = k->abs,
        .dev = st->st_dev,
        .ino = st->st_ino,
        .mode = st->st_mode,
        .uid = st->st_uid,
        .gid = st->st_gid,
        .mtime_ns = rg_timespec_ns(&st->st_mtim),
        .atime_ns = rg_timespec_ns(&st->st_atim),
        .size = st->st_size,
        .exists = 1,
    };
}

/* A symbolic link, a directory or (under --strict, where the open looks at
 * what it opened) a FIFO where the index is to be. */
static bool in_the_way(int err) { return err == -ELOOP || err == -EISDIR || err == -ENXIO; }

/* The session's index, opened to append; what stands in its way is moved
 * aside once: a --strict tree that learnt its session's id from the log
 * could otherwise make a directory there and have every later change go
 * ahead unkept. */
static int open_index(const struct rg_header *h, const char *path, bool strict)
{
    char dir[RG_JPATH];
    int fd = rg_log_open_in(path, strict);
    /* rg_log_open makes missing directories only under this process's
     * state directory; the session's journal may be another's (a tool that
     * sets HOME), and it is made here as jcopy makes objects/. */
    if (fd == -ENOENT && rg_concat(dir, sizeof dir, h->journal_dir, "/", RG_JOURNAL_SESSIONS) &&
        rg_jdir_make(dir) == 0)
        fd = rg_log_open_in(path, strict);
    if (in_the_way(fd) && rg_jset_aside(path) == 0)
        fd = rg_log_open_in(path, strict);
    return fd;
}

static int append(const struct rg_jkeep *k, const struct rg_jrecord *r)
{
    const struct rg_header *h = k->c->table.hdr;
    const char *path = k->index;
    char line[8192];
    size_t n = rg_jrecord_format(line, sizeof line, r);
    if (n == 0)
        return -ENAMETOOLONG;
    int fd = open_index(h, path, k->c->sealed_ino);
    if (fd < 0)
        return fd;
    ssize_t w = write(fd, line, n);
    int e = w < 0 ? -errno : (size_t)w == n ? 0 : -ENOSPC;
    rg_sys_close(fd);
    return e;
}

int rg_jindex_append(const struct rg_jkeep *k)
{
    struct rg_jrecord r;
    fill_record(k, &r);
    r.object = k->object;
    return append(k, &r);
}

/* The session log's line for it, as for a refusal: the log is where a
 * user looks for what readguard let through without a way back. */
static void log_unsaved(const struct rg_jkeep *k, const struct rg_jrecord *r, const char *why)
{
    struct rg_ctx *c = k->c;
    const char *log = c->table.hdr->log_path;
    char sid[RG_JOURNAL_ID_MAX];
    rg_journal_id(sid, c->table.hdr->created_ns, c->table.hdr->creator_pid);
    struct rg_log_line l = {
        .time_ns = r->time_ns,
        .pid = r->pid,
        .prog = r->prog,
        .op = rg_op_name(k->req->op),
        .call = k->req->call,
        .path = k->abs,
        .decision = "unsaved",
        .reason = why,
        .current_mtime_ns = r->mtime_ns,
        .current_size = r->size,
        .session = sid,
    };
    char line[4096];
    size_t n = log[0] ? rg_log_format(line, sizeof line, &l) : 0;
    int fd = !n ? -1 : c->sealed_ino ? rg_log_open_in(log, true) : rg_log_open(log);
    if (fd >= 0) {
        ssize_t w = write(fd, line, n);
        (void)w;
        rg_sys_close(fd);
    }
}

static void warn_unsaved(const struct rg_jkeep *k, const char *why, int err)
{
    struct rg_ctx *c = k->c;
    char msg[2 * PATH_MAX + 640], shown[PATH_MAX], jdir[PATH_MAX];
    rg_line_escape(shown, sizeof shown, k->abs);
    rg_line_escape(jdir, sizeof jdir, c->table.hdr->journal_dir);
    const char *name = rg_errname(err);
    /* Too large or unreadable is the file's; an unwritable journal is the
     * user's to fix, once, for every later change. */
    bool ours = strcmp(why, "journal-unwritable") == 0 && err != ENAMETOOLONG;
    int m = snprintf(msg, sizeof msg,
                     "readguard: warning: the old bytes of '%s' were not kept in the journal "
                     "'%s' (%s%s%s); the change goes ahead, and `readguard undo` cannot bring "
                     "them back.%s\n",
                     shown, jdir, why, name ? ": " : "", name ? name : "",
                     ours ? " Make the journal writable, set XDG_STATE_HOME to a directory that "
                            "is, or run with --no-journal."
                          : "");
    int efd = rg_log_err_fd(c);
    ssize_t w = m > 0 && efd >= 0 ? write(efd, msg, (size_t)m) : 0;
    (void)w;
}

void rg_jindex_unsaved(const struct rg_jkeep *k, const char *why, int err)
{
    struct rg_jrecord r;
    fill_record(k, &r);
    r.unsaved = why;
    append(k, &r);
    log_unsaved(k, &r, why);
    /* Once a process: every later change would say the same. */
    if (!atomic_exchange(&k->c->journal_warned, 1))
        warn_unsaved(k, why, err);
}
