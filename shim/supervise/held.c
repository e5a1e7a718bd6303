/* Write descriptors the supervisor handed to the tree. The shim restamps a
 * file when its process closes a write descriptor; the supervisor never sees
 * the target's close (trapping every close would cost a round trip each), so
 * it keeps its own copy of each descriptor, counted as a writer for the
 * target, and settles it once the target no longer holds the file: that is
 * checked before every supervised write is judged, at once when the holder
 * exits (the common case: a tool writes and exits), every few
 * milliseconds by the reaper otherwise (a close or an exec), and once more
 * when the tree has exited (rg_sv_finish), before the run ends. Settling restamps the file from the
 * copy, as the shim would at close, and drops the writer count. Meanwhile the session's own
 * processes may write the file (the writer is alive), exactly as while a shim process holds a write
 * descriptor. */
#include <linux/kcmp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guard/ask.h"
#include "os/clock.h"
#include "os/procfd.h"
#include "supervise/supervise.h"
/* How long a holder that closed its copy and lives on goes unsettled. */
#define RG_SV_HELD_TICK_MS 2

struct held_fd {
    int fd;
    int pidfd; /* readable once the holder has exited */
    uint64_t dev, ino;
    int32_t holder;
    int there;        /* its number in the holder, as ADDFD gave it */
    bool append;      /* an unread append (rg_sv_held_add) */
    int64_t ctime_ns; /* an append's file's ctime when added; -1: unknown */
};

struct rg_sv_held {
    pthread_mutex_t lock;
    int wake; /* eventfd: a copy was added */
    struct rg_ctx *ctx;
    pid_t self; /* readguard, for kcmp */
    struct held_fd *v;
    size_t n, cap;
};

struct rg_sv_held *rg_sv_held_new(struct rg_ctx *c)
{
    struct rg_sv_held *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    pthread_mutex_init(&h->lock, NULL);
    h->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    h->ctx = c;
    h->self = getpid();
    return h;
}

void rg_sv_held_add(struct rg_sv_held *h, int fd, uint64_t dev, uint64_t ino, int32_t holder,
                    int there, bool append)
{
    pthread_mutex_lock(&h->lock);
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        struct held_fd *v = realloc(h->v, cap * sizeof *v);
        if (v) {
            h->v = v;
            h->cap = cap;
        }
    }
    int pidfd = (int)syscall(SYS_pidfd_open, holder, 0);
    struct stat st;
    int64_t ctime_ns = append && fstat(fd, &st) == 0 ? rg_timespec_ns(&st.st_ctim) : -1;
    if (h->n < h->cap) {
        h->v[h->n++] = (struct held_fd){fd, pidfd, dev, ino, holder, there, append, ctime_ns};
    } else {
        close(fd); /* out of memory: the count goes stale, and stale counts are not believed */
        if (pidfd >= 0)
            close(pidfd);
    }
    pthread_mutex_unlock(&h->lock);
    uint64_t one = 1;
    if (write(h->wake, &one, sizeof one) < 0)
        return; /* already signalled */
}

static void release(struct rg_sv_held *h, const struct held_fd *f)
{
    struct rg_table *t = &h->ctx->table;
    struct rg_entry *e =
        f->append ? rg_table_find(t, f->dev, f->ino) : rg_table_find_or_add(t, f->dev, f->ino);
    struct stat st;
    if (e && fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode)) {
        struct rg_stamp now = rg_stamp_of(&st);
        if (f->append)
            rg_entry_append_end(e, &now, f->holder);
        else
            rg_entry_stamp(t, e, &now, true, rg_now_ns());
    }
    if (e && !f->append)
        rg_entry_writer_close(e);
    close(f->fd);
    if (f->pidfd >= 0)
        close(f->pidfd);
}

/* Has the holder exited? Only its pidfd can say before the descriptor is
 * the holder's; without one, it may still be about to get it. */
static bool exited(const struct held_fd *f)
{
    struct pollfd p = {.fd = f->pidfd, .events = POLLIN};
    return f->pidfd >= 0 && poll(&p, 1, 0) > 0;
}

/* An append's copy whose file nothing changed since it was added, while its
 * holder lives: the holder may not show the descriptor yet (seen under load:
 * kcmp EBADF and no /proc entry just after ADDFD), and letting it go now
 * would leave the stamp where it was, so the holder's append to come would
 * make the next appender keep the file again. Held until it changes or the
 * holder exits, nothing is lost: the let-go of an unchanged file is a no-op. */
static bool append_unchanged(const struct held_fd *f)
{
    struct stat st;
    return f->append && f->ctime_ns >= 0 && f->pidfd >= 0 && !exited(f) && fstat(f->fd, &st) == 0 &&
           rg_timespec_ns(&st.st_ctim) == f->ctime_ns;
}

/* While a tool writes, it still has the descriptor under the number it
 * got: one kcmp says so, where a look through its descriptors costs an
 * open, a getdents and a stat per descriptor (before every supervised
 * write and every few milliseconds). Anything else (moved by dup2, closed,
 * kcmp refused or not built in) looks through them as before; "the same
 * open file" is all the look would have found. */
static bool still_held(const struct rg_sv_held *h, const struct held_fd *f)
{
    if (f->there == RG_SV_HELD_PENDING || append_unchanged(f))
        return !exited(f);
    if (f->there >= 0 && syscall(SYS_kcmp, f->holder, h->self, KCMP_FILE, f->there, f->fd) == 0)
        return true;
    return rg_pid_holds(f->holder, f->dev, f->ino, -1);
}

void rg_sv_held_placed(struct rg_sv_held *h, int fd, int there)
{
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->n; i++)
        if (h->v[i].fd == fd && h->v[i].there == RG_SV_HELD_PENDING)
            h->v[i].there = there;
    pthread_mutex_unlock(&h->lock);
}

size_t rg_sv_held_settle(struct rg_sv_held *h)
{
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->n;) {
        if (still_held(h, &h->v[i])) {
            i++;
            continue;
        }
        release(h, &h->v[i]);
        h->v[i] = h->v[--h->n];
    }
    size_t left = h->n;
    pthread_mutex_unlock(&h->lock);
    return left;
}

bool rg_sv_held_wait(struct rg_sv_held *h, int also)
{
    struct pollfd p[64] = {{.fd = h->wake, .events = POLLIN}, {.fd = also, .events = POLLIN}};
    nfds_t n = 2;
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->n && n < 64; i++)
        if (h->v[i].pidfd >= 0)
            p[n++] = (struct pollfd){.fd = h->v[i].pidfd, .events = POLLIN};
    /* With nothing held, only an addition can change anything. */
    int ms = h->n == 0 ? -1 : RG_SV_HELD_TICK_MS;
    pthread_mutex_unlock(&h->lock);
    if (poll(p, n, ms) <= 0)
        return false;
    uint64_t v;
    if ((p[0].revents & POLLIN) && read(h->wake, &v, sizeof v) < 0)
        return false; /* cannot be: the reaper alone reads it; the timer stays readable */
    return p[1].revents & POLLIN;
}
