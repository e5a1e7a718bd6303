#include "guard/log.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "core/text.h"
#include "guard/critical.h"
#include "os/clock.h"
#include "os/errname.h"
#include "os/libcvar.h"
#include "os/logfile.h"
#include "os/sys.h"
void rg_log_stderr_opened(struct rg_ctx *c, uint64_t dev, uint64_t ino)
{
    c->err_data_dev = dev;
    atomic_store_explicit(&c->err_data_ino, ino, memory_order_release);
}

void rg_log_stderr_given(struct rg_ctx *c)
{
    atomic_store_explicit(&c->err_data_ino, 0, memory_order_relaxed);
}

/* Is descriptor 2 the data file the process opened onto it? A stderr the
 * parent or the process itself redirected (`2>f`, dup2) is opened on
 * another descriptor and dup'd onto 2, so it is never marked; once the
 * marked file is closed, 2 is another inode, or that same file again. */
static bool stderr_is_data(const struct rg_ctx *c)
{
    uint64_t ino = atomic_load_explicit(&c->err_data_ino, memory_order_acquire);
    struct stat st;
    return ino != 0 && rg_sys_fstat(STDERR_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
           (uint64_t)st.st_ino == ino && (uint64_t)st.st_dev == c->err_data_dev;
}

/* Who the decision was for: the supervisor speaks for the process it traps,
 * on that process's stderr (fetched only when there is something to say),
 * under its pid and name. */
int rg_log_err_fd(const struct rg_ctx *c)
{
    struct rg_actor *a = c->actor;
    if (!a)
        return stderr_is_data(c) ? -1 : STDERR_FILENO;
    if (a->err_fd < 0) {
        int pidfd = (int)rg_syscall6(SYS_pidfd_open, a->pid, 0, 0, 0, 0, 0);
        if (pidfd >= 0) {
            a->err_fd = (int)rg_syscall6(SYS_pidfd_getfd, pidfd, STDERR_FILENO, 0, 0, 0, 0);
            rg_sys_close(pidfd);
        }
    }
    return a->err_fd;
}

static int32_t actor_pid(const struct rg_ctx *c)
{
    return c->actor ? c->actor->pid : (int32_t)rg_sys_getpid();
}

const char *rg_log_actor_prog(const struct rg_ctx *c)
{
    struct rg_actor *a = c->actor;
    if (!a)
        return rg_libc_progname();
    if (!a->prog[0]) {
        char p[64];
        snprintf(p, sizeof p, "/proc/%d/comm", (int)a->tid);
        int fd = rg_sys_openat(AT_FDCWD, p, O_RDONLY | O_CLOEXEC, 0);
        ssize_t n = fd >= 0 ? read(fd, a->prog, sizeof a->prog - 1) : -1;
        a->prog[n > 0 ? n - (a->prog[n - 1] == '\n') : 0] = '\0';
        if (fd >= 0)
            rg_sys_close(fd);
    }
    return a->prog;
}

static const char *verb(const struct rg_request *req)
{
    switch (req->op) {
    case RG_OP_UNLINK: return "remove";
    case RG_OP_LINK: return strstr(req->call, "rename") ? "move" : "link";
    default: return "write";
    }
}

/* Is fd the very file the refusal protects? A process that closed stderr
 * gets its next descriptor as 2, and the one the shim opens a file on to
 * judge it is then 2 too: the line would be written into that file. */
static bool is_the_file(int fd, const struct rg_file *f)
{
    struct stat st;
    return f && f->exists && rg_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
           (uint64_t)st.st_dev == f->dev && (uint64_t)st.st_ino == f->ino;
}

/* The room a refusal line keeps after the name, however long the name
 * (an escaped byte takes four): the closing quote and the reason sentence
 * (core/report.h), which says why and what to do. */
#define REASON_ROOM 256

static void refusal_line(const struct rg_report *r, const struct rg_ctx *c)
{
    char line[PATH_MAX + 512];
    size_t n = (size_t)snprintf(line, sizeof line, "readguard: refused to %s '", verb(r->req));
    /* A newline in a file name must not split the message. */
    n += rg_line_escape(line + n, sizeof line - n - REASON_ROOM, r->shown_path);
    n += (size_t)snprintf(line + n, sizeof line - n,
                          "'%s: ", r->req->op == RG_OP_LINK ? " out of the guarded files" : "");
    n += rg_reason_text(line + n, sizeof line - n - 1, r,
                        c->table.hdr ? rg_table_full_at(c->table.hdr) : 0, c->problem);
    line[n++] = '\n';
    int fd = rg_log_err_fd(c);
    if (fd < 0 || is_the_file(fd, r->file))
        return;
    ssize_t w = RG_PAUSED(write(fd, line, n));
    (void)w;
}

/* A warning, m bytes of msg (snprintf's answer, cut to cap), on the
 * stderr of the process the decision was for. */
static void say(const struct rg_ctx *c, const char *msg, int m, size_t cap)
{
    size_t len = m < 0 ? 0 : (size_t)m < cap ? (size_t)m : cap - 1;
    int efd = rg_log_err_fd(c);
    ssize_t w = len > 0 && efd >= 0 ? write(efd, msg, len) : 0;
    (void)w; /* stderr failing too leaves nowhere to say so */
}

/* One warning per process, not per call: a full disk must not flood
 * stderr, and the decision itself never depends on the log. err is 0 for a
 * short write. */
static void warn_unwritable(struct rg_ctx *c, const char *log, int err)
{
    if (atomic_exchange(&c->log_warned, 1))
        return;
    char num[24];
    const char *name = err ? rg_errname(err) : "short write";
    if (!name) { /* musl names none */
        snprintf(num, sizeof num, "errno %d", err);
        name = num;
    }
    char msg[RG_LOG_PATH_MAX + 256];
    int m = snprintf(msg, sizeof msg,
                     "readguard: warning: cannot write the log '%s' (%s); decisions are "
                     "unaffected. Give --log or READGUARD_LOG a file that can be "
                     "written, or set XDG_STATE_HOME to a directory that can.\n",
                     log, name);
    say(c, msg, m, sizeof msg);
}

static void json_line(const struct rg_report *r, struct rg_ctx *c)
{
    /* Without a table, the session's log and id as its launcher passed
     * them on. */
    const char *log = c->table.hdr ? c->table.hdr->log_path : c->lost_log;
    if (!log || !log[0])
        return;
    const struct rg_record *rec = &r->facts->rec;
    char sid[RG_JOURNAL_ID_MAX] = "";
    if (c->table.hdr)
        rg_journal_id(sid, c->table.hdr->created_ns, c->table.hdr->creator_pid);
    else if (c->lost_id)
        memcpy(sid, c->lost_id, strlen(c->lost_id) + 1);
    struct rg_log_line l = {
        .time_ns = rg_now_ns(),
        .pid = (int)actor_pid(c),
        .prog = rg_log_actor_prog(c),
        .op = rg_op_name(r->req->op),
        .call = r->req->call,
        .path = r->abs_path,
        .decision = r->decision.action == RG_WARN ? "warn" : "refuse",
        .reason = rg_reason_name(r->decision.reason),
        .recorded = rec->found,
        .recorded_mtime_ns = rec->mtime_ns,
        .recorded_size = rec->size,
        .current_mtime_ns = r->file->mtime_ns,
        .current_size = r->file->size,
        .session = sid,
    };
    char line[4096];
    size_t n = rg_log_format(line, sizeof line, &l);
    if (n == 0)
        return;
    int fd = c->sealed_ino ? rg_log_open_in(log, true) : rg_log_open(log);
    /* What a --strict tree planted at the sealed log's path before its
     * first line (mknod and mkdir are not trapped) is moved aside once, as
     * at the journal's index (guard/journal/index.c). */
    if (c->sealed_ino && (fd == -ELOOP || fd == -EISDIR || fd == -ENXIO) &&
        rg_log_set_aside(log) == 0)
        fd = rg_log_open_in(log, true);
    ssize_t wrote = fd >= 0 ? write(fd, line, n) : -1;
    if (wrote != (ssize_t)n)
        warn_unwritable(c, log, fd < 0 ? -fd : wrote < 0 ? errno : 0);
    if (fd >= 0)
        rg_sys_close(fd);
}

void rg_log_decision(struct rg_ctx *c, const struct rg_report *r)
{
    if (c->table.hdr) {
        struct rg_header *h = c->table.hdr;
        atomic_fetch_add_explicit(r->decision.action == RG_WARN ? &h->warnings : &h->refusals, 1,
                                  memory_order_relaxed);
    }
    /* Warn mode stays silent on stderr: it is for watching a workload, and
     * must not change what the workload prints. */
    if (r->decision.action == RG_REFUSE)
        refusal_line(r, c);
    json_line(r, c);
}

void rg_log_table_full(struct rg_ctx *c)
{
    /* The first process to find the table full speaks for the session: a
     * build that reads thousands more files must not print thousands of
     * lines. Warn mode never adds to what a workload prints. */
    uint32_t full = RG_FULL;
    if (c->mode == RG_MODE_WARN ||
        !atomic_compare_exchange_strong(&c->table.hdr->full, &full, RG_FULL_WARNED))
        return;
    int saved = errno; /* from a read's record, which keeps none (guard/calls.c) */
    char msg[320];
    const struct rg_header *h = c->table.hdr;
    uint32_t used = atomic_load_explicit(&h->used, memory_order_relaxed);
    /* The file system refused a chunk of entries or a page of the index
     * (core/table.h, rg_header.roomless), not the capacity that ran out. */
    bool no_room = used < h->capacity && atomic_load(&h->roomless);
    int m =
        snprintf(msg, sizeof msg,
                 "readguard: warning: the session table is full (%u files)%s: further reads "
                 "are not recorded, so writes to those files will be refused. %s\n",
                 no_room ? used : h->capacity, no_room ? ": its file system has no room left" : "",
                 no_room ? "Free room there, or point " RG_ENV_DIR
                           " at a file system with room for new sessions."
                         : "Start the session with a larger --capacity.");
    say(c, msg, m, sizeof msg);
    errno = saved;
}
