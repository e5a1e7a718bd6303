/* Write descriptors the supervisor handed to the tree. The shim restamps a
 * file when its process closes a write descriptor; the supervisor never sees
 * the target's close (trapping every close would cost a round trip each), so
 * it keeps its own copy of each descriptor, counted as a writer for the
 * target, and settles it once the target no longer holds the file: that is
 * checked before every supervised write is judged and every few
 * milliseconds by the reaper. Settling restamps the file from the copy, as
 * the shim would at close, and drops the writer count. Meanwhile the
 * session's own processes may write the file (the writer is alive), exactly
 * as while a shim process holds a write descriptor. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../session.h"
#include "supervise.h"

struct held_fd {
    int fd;
    uint64_t dev, ino;
    int32_t holder;
};

struct rg_sv_held {
    pthread_mutex_t lock;
    pthread_cond_t added;
    struct rg_ctx *ctx;
    struct held_fd *v;
    size_t n, cap;
};

struct rg_sv_held *rg_sv_held_new(struct rg_ctx *c)
{
    struct rg_sv_held *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->added, NULL);
    h->ctx = c;
    return h;
}

void rg_sv_held_add(struct rg_sv_held *h, int fd, uint64_t dev, uint64_t ino, int32_t holder)
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
    if (h->n < h->cap)
        h->v[h->n++] = (struct held_fd){fd, dev, ino, holder};
    else
        close(fd); /* out of memory: the count goes stale, and stale counts are not believed */
    pthread_cond_signal(&h->added);
    pthread_mutex_unlock(&h->lock);
}

static void release(struct rg_sv_held *h, const struct held_fd *f)
{
    struct rg_table *t = &h->ctx->table;
    struct rg_entry *e = rg_table_find_or_add(t, f->dev, f->ino);
    struct stat st;
    if (e && fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode)) {
        struct rg_stamp now = {
            .mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec,
            .ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec,
            .size = st.st_size,
        };
        rg_entry_stamp(t, e, &now, true, rg_now_ns());
    }
    if (e)
        rg_entry_writer_close(e);
    close(f->fd);
}

size_t rg_sv_held_settle(struct rg_sv_held *h)
{
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->n;) {
        if (rg_pid_holds(h->v[i].holder, h->v[i].dev, h->v[i].ino)) {
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

void rg_sv_held_wait(struct rg_sv_held *h, int ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&h->lock);
    if (h->n == 0)
        pthread_cond_timedwait(&h->added, &h->lock, &until);
    pthread_mutex_unlock(&h->lock);
}
