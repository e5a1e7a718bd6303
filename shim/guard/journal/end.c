#include "guard/journal/end.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "guard/journal/paths.h"
#include "guard/log.h"
#include "os/clock.h"
#include "os/logfile.h"
#include "os/sys.h"
size_t rg_jend_format(char *out, size_t cap, int at, const char *name, const char *abs,
                      const struct rg_jend_by *by)
{
    struct stat st;
    struct rg_jrecord r = {
        .time_ns = by->time_ns,
        .pid = by->pid,
        .prog = by->prog,
        .op = RG_JOURNAL_OP_END,
        .call = by->call,
        .path = abs,
        .exists = rg_sys_fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0,
        .unsaved = RG_JOURNAL_OP_END,
    };
    if (r.exists) {
        r.dev = st.st_dev, r.ino = st.st_ino, r.mode = st.st_mode;
        r.uid = st.st_uid, r.gid = st.st_gid, r.size = st.st_size;
        r.mtime_ns = rg_timespec_ns(&st.st_mtim);
        r.atime_ns = rg_timespec_ns(&st.st_atim);
    }
    return rg_jrecord_format(out, cap, &r);
}

/* The longest record: what rg_jrecord_format is given to write one. */
#define RG_JEND_LINE 8192

/* A path recorded already: its hash, and where its bytes are in names (+1:
 * 0 is an empty slot). */
struct seen {
    uint64_t hash;
    size_t at;
};

/* One pass's working memory, mapped rather than on the stack: the library
 * ends a session on whatever thread calls exit, whose stack may be small.
 * The index is read whole into text; names holds each path once, each
 * shorter than the record naming it, so the index's size bounds it; the
 * slots follow. */
struct pass {
    struct rg_jobject o;
    char line[RG_JEND_LINE];
    char out[64 << 10];
    size_t nout;
    int fd; /* the index, to append to */
    int err;
    const struct rg_jend_by *by;
    char *text, *names;
    size_t len, nnames;
    struct seen *slots;
    size_t mask; /* the number of slots, a power of two, less one */
};

static uint64_t hash_of(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* Adds the path at p->names + p->nnames to those seen: false if it was. */
static bool first_time(struct pass *p)
{
    const char *name = p->names + p->nnames;
    uint64_t h = hash_of(name);
    size_t i = (size_t)h & p->mask;
    for (; p->slots[i].at; i = (i + 1) & p->mask)
        if (p->slots[i].hash == h && strcmp(p->names + p->slots[i].at - 1, name) == 0)
            return false;
    p->slots[i] = (struct seen){h, p->nnames + 1};
    p->nnames += strlen(name) + 1;
    return true;
}

static void flush(struct pass *p)
{
    for (size_t done = 0; done < p->nout && !p->err;) {
        ssize_t w = write(p->fd, p->out + done, p->nout - done);
        if (w <= 0)
            p->err = w < 0 ? -errno : -ENOSPC;
        else
            done += (size_t)w;
    }
    p->nout = 0;
}

/* One line of the index, n bytes before its newline. One too long for a
 * record written whole is none; an end record is of an earlier end of the
 * session (a kept one, rejoined since), and names nothing to record. */
static void take(struct pass *p, const char *text, size_t n)
{
    if (n >= sizeof p->line)
        return;
    memcpy(p->line, text, n);
    p->line[n] = '\0';
    const char *line = p->line, *op;
    char *name = p->names + p->nnames;
    if (!rg_jrecord_parse(&line, &p->o) || !(op = rg_jsonl_get(&p->o, "op")) ||
        strcmp(op, RG_JOURNAL_OP_END) == 0 ||
        !rg_jrecord_path(&p->o, name, p->len + 1 - p->nnames) || name[0] != '/' || !first_time(p))
        return;
    if (p->nout + RG_JEND_LINE > sizeof p->out)
        flush(p);
    p->nout += rg_jend_format(p->out + p->nout, RG_JEND_LINE, AT_FDCWD, name, name, p->by);
}

/* The most records naming a path that len bytes hold: each is more than
 * 16 bytes with its newline ({"op":"","path":"/"}). The slots are mapped
 * for that many, and only as many as the index has lines touched. */
#define MOST_PATHS(len) ((len) / 16 + 1)

static size_t lines_in(const char *text, size_t len)
{
    size_t n = 0;
    for (const char *s = text, *end = text + len; (s = memchr(s, '\n', (size_t)(end - s))); s++)
        n++;
    return n;
}

/* Twice as many slots as paths, at most: never full. */
static size_t slots_for(size_t lines)
{
    size_t slots = 16;
    while (slots < 2 * lines)
        slots *= 2;
    return slots;
}

static int append_ends(struct pass *p, const char *index)
{
    size_t lines = lines_in(p->text, p->len);
    p->slots = (struct seen *)(((uintptr_t)(p->names + p->len + 1) + 15) & ~(uintptr_t)15);
    p->mask = slots_for(lines < MOST_PATHS(p->len) ? lines : MOST_PATHS(p->len)) - 1;
    p->fd = rg_log_open_in(index, false);
    if (p->fd < 0)
        return p->fd;
    const char *end = p->text + p->len;
    for (const char *s = p->text, *nl; (nl = memchr(s, '\n', (size_t)(end - s))); s = nl + 1)
        take(p, s, (size_t)(nl - s));
    flush(p);
    rg_sys_close(p->fd);
    return p->err;
}

/* The session index at index, open to read: -ENOENT when the session kept
 * nothing, and has none. */
static int open_index(const char *index)
{
    int fd = rg_sys_openat(AT_FDCWD, index, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
    struct stat st;
    if (fd >= 0 && (rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        rg_sys_close(fd);
        fd = -EINVAL;
    }
    return fd;
}

/* Appends to the session index at index an "end" record for each path its
 * records name, once each, reading them from fd (open_index), which it
 * closes: one pass over the index, and one append per 64 KiB of records.
 * 0, or -errno. */
static int end_each_path(int fd, const char *index, const struct rg_jend_by *by)
{
    struct stat st;
    int e = rg_sys_fstat(fd, &st);
    size_t len = e == 0 ? (size_t)st.st_size : 0;
    size_t size =
        sizeof(struct pass) + 2 * (len + 1) + 16 + slots_for(MOST_PATHS(len)) * sizeof(struct seen);
    struct pass *p =
        len ? rg_sys_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            : MAP_FAILED;
    if (p != MAP_FAILED) {
        p->by = by;
        p->text = (char *)(p + 1);
        long n = rg_sys_read_full(fd, p->text, len);
        p->len = n > 0 ? (size_t)n : 0;
        p->names = p->text + p->len + 1;
        e = n < 0 ? (int)n : append_ends(p, index);
        rg_sys_munmap(p, size);
    } else if (len) {
        e = -ENOMEM;
    }
    rg_sys_close(fd);
    return e;
}

int rg_jend_session(const char *index, const struct rg_jend_by *by)
{
    int fd = open_index(index);
    return fd >= 0 ? end_each_path(fd, index, by) : fd == -ENOENT ? 0 : fd;
}

void rg_jend_close(struct rg_ctx *c)
{
    const struct rg_header *h = c->table.hdr;
    if (!h || (c->policy & RG_POLICY_NO_JOURNAL))
        return;
    char objects_buf[RG_JPATH], index_buf[RG_JPATH];
    const char *objects, *index;
    rg_jpaths_get(&c->jpaths, h, objects_buf, index_buf, &objects, &index);
    /* Opened first: a session that kept nothing pays this one look. */
    int fd = index[0] ? open_index(index) : -ENOENT;
    if (fd < 0)
        return;
    struct rg_jend_by by = {rg_log_actor_prog(c), "exit", (int)rg_sys_getpid(), rg_now_ns()};
    end_each_path(fd, index, &by);
}
