/* stdio opens. glibc's fopen calls its internal open, which no hook sees, so
 * a write-mode fopen is carried out here as a guarded open plus fdopen: the
 * check happens before anything is truncated, on the inode actually opened. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/text.h"
#include "guard/log.h"
#include "guard/streams.h"
#include "preload/hook.h"
#include "preload/hooks/open.h"

/* The open(2) a stream's open makes: mode 0666, as fopen(3) creates. */
static inline struct rg_request stream_request(const char *call, const char *path, int flags)
{
    return (struct rg_request){.op = RG_OP_OPEN,
                               .call = call,
                               .dirfd = AT_FDCWD,
                               .path = path,
                               .flags = flags,
                               .mode = 0666};
}

/* fdopen() cannot apply a ",ccs=" conversion, so those streams are checked by
 * path and then opened by glibc; the window between is documented. */
static FILE *open_ccs_stream(struct rg_ctx *c, const struct rg_request *req, const char *mode,
                             FILE *(*real)(const char *, const char *))
{
    int r = rg_guard_check_path(c, req);
    if (r < 0) {
        errno = -r;
        return NULL;
    }
    FILE *fp = RG_PAUSED(real(req->path, mode));
    if (fp && r != RG_CHECKED_UNREAD)
        rg_note_write(c, fileno(fp), fp);
    return fp;
}

/* w: the file as rg_open_write opened it, before the hook entered. */
static FILE *open_stream(struct rg_ctx *c, const struct rg_request *req, const char *mode,
                         const struct rg_write_open *w)
{
    int fd = rg_guard_opened_write(c, req, w);
    if (fd < 0) {
        errno = -fd;
        return NULL;
    }
    /* fopen "a" starts at the end; fdopen would start where the fd is. */
    if (mode[0] == 'a' && !strchr(mode, '+'))
        lseek(fd, 0, SEEK_END);
    FILE *fp = fdopen(fd, mode);
    if (!fp) {
        int e = errno;
        rg_note_close(c, fd);
        rg_sys_close(fd);
        errno = e;
        return NULL;
    }
    rg_fd_set_stream(c, fd, fp);
    return fp;
}

static FILE *fopen_hook(const char *call, const char *path, const char *mode,
                        FILE *(*real)(const char *, const char *))
{
    int saved = errno, flags;
    if (rg_crit_inside() || !path || !mode || !rg_fopen_flags(mode, &flags))
        return real(path, mode); /* glibc reports its own EINVAL */
    FILE *fp;
    struct rg_ctx *c;
    struct rg_request req = stream_request(call, path, flags);
    if (!rg_flags_write(flags)) {
        if ((fp = real(path, mode))) {
            rg_hook_read_done(&req, fileno(fp));
            errno = saved;
        }
        return fp;
    }
    /* Opened first, outside, as a write-mode open() is (hooks/open.c). */
    bool ccs = strchr(mode, ',') != NULL;
    struct rg_write_open w = {.fd = -1};
    if (!ccs)
        rg_open_write(&req, &w);
    if (!(c = rg_enter())) {
        if (w.fd >= 0)
            rg_sys_close(w.fd);
        return real(path, mode);
    }
    fp = ccs ? open_ccs_stream(c, &req, mode, real) : open_stream(c, &req, mode, &w);
    rg_leave();
    if (fp)
        errno = saved;
    return fp;
}

/* glibc's _IO_IS_FILEBUF (libio.h, no longer installed; part of its ABI). */
#define RG_IO_IS_FILEBUF 0x2000

/* fileno without the call: coreutils fclose stdout and stderr at exit, and
 * fileno would be one more libc function for ld.so to bind in each of them
 * (some 700 instructions). glibc's FILE is public; a closed one holds -1.
 * As in fileno, only a file stream's field is its descriptor: a memory
 * stream (open_memstream) leaves it unset, heap garbage that may be the
 * number of a descriptor the program is writing. */
static int stream_fd(FILE *fp)
{
#ifdef __GLIBC__
    return (fp->_flags & RG_IO_IS_FILEBUF) && fp->_fileno >= 0 ? fp->_fileno : -1;
#else
    return fileno(fp);
#endif
}

/* fclose closes through glibc's internal close: flush and restamp first. */
static int close_stream(FILE *stream)
{
    int saved = errno;
    int fd = stream ? stream_fd(stream) : -1;
    struct rg_ctx *c;
    /* A written stream on the fast slots, or stdout and stderr closed
     * before exit (coreutils): flushed with the program's mask and
     * restamped outside, as close() does (hooks/close.c). */
    if (fd >= 0 && fd < RG_FDMAP_SIZE && !rg_fd_idle(fd) && !rg_crit_inside() && (c = rg_ready())) {
        if (rg_stream_pending(stream))
            fflush(stream);
        rg_note_close(c, fd);
        errno = saved;
        return RG_REAL(fclose)(stream);
    }
    /* Most streams: nothing to flush early or restamp. */
    c = rg_fd_needs_ctx(fd, stream) ? rg_enter() : NULL;
    if (c) {
        struct rg_fdslot s;
        /* 0-2 may be the session's file, written by a parent's redirect. */
        if (fd >= 0 && (fd <= 2 || rg_fd_peek(c, fd, &s))) {
            /* Nothing pending (cat writes with write(2)): no flush to bind. */
            if (rg_stream_pending(stream))
                RG_PAUSED(fflush(stream));
            rg_note_close(c, fd);
        }
        rg_leave();
        errno = saved;
    }
    return RG_REAL(fclose)(stream);
}

/* freopen must keep the same FILE, so glibc does the open after a check by
 * path; the stream's old descriptor is restamped before glibc closes it. */
static FILE *freopen_hook(const char *call, const char *path, const char *mode, FILE *stream,
                          FILE *(*real)(const char *, const char *, FILE *))
{
    int saved = errno, flags;
    struct rg_ctx *c = rg_enter();
    if (!c)
        return real(path, mode, stream);
    int oldfd = fileno(stream), checked = 0;
    struct rg_fdslot s;
    if (oldfd >= 0 && rg_fd_peek(c, oldfd, &s)) {
        RG_PAUSED(fflush(stream));
        rg_note_close(c, oldfd);
    }
    /* freopen(NULL, mode) reopens the stream's own file by its
     * /proc/self/fd link, unseen: judged as that open, or a stream
     * --allow-append let through unread could be reopened "w" or "r+". */
    char link[RG_FD_LINK_MAX];
    const char *target = path;
    if (!path && oldfd >= 0) {
        rg_fd_link(link, oldfd);
        target = link;
    }
    if (target && mode && rg_fopen_flags(mode, &flags) && rg_flags_write(flags)) {
        struct rg_request req = stream_request(call, target, flags);
        checked = rg_guard_check_path(c, &req);
        if (checked < 0) {
            rg_leave();
            close_stream(stream); /* freopen closes the stream when it fails */
            errno = -checked;
            return NULL;
        }
    }
    FILE *fp = RG_PAUSED(real(path, mode, stream));
    if (fp && mode && rg_fopen_flags(mode, &flags)) {
        if (rg_flags_write(flags)) {
            if (checked != RG_CHECKED_UNREAD)
                rg_note_write(c, fileno(fp), fp);
            /* freopen keeps the stream's descriptor: this one was on 2. */
            if (fileno(fp) == STDERR_FILENO)
                rg_log_stderr_given(c);
        } else
            rg_note_read(c, fileno(fp), flags);
    }
    rg_leave();
    if (fp)
        errno = saved;
    return fp;
}

/* libio's own opens of a FILE the caller holds, exported by glibc: the
 * FILE must stay the caller's, so, as freopen, the open is checked by path
 * and then made by glibc. Its descriptor is then noted as fopen's is. */
static int libio_check(struct rg_ctx *c, const char *call, const char *path, int flags)
{
    if (!rg_flags_write(flags))
        return 0;
    struct rg_request req = stream_request(call, path, flags);
    return rg_guard_check_path(c, &req);
}

static FILE *libio_done(struct rg_ctx *c, FILE *fp, int flags, int checked, int saved)
{
    if (fp && !rg_flags_write(flags))
        rg_note_read(c, fileno(fp), flags);
    else if (fp && checked != RG_CHECKED_UNREAD)
        rg_note_write(c, fileno(fp), fp);
    rg_leave();
    errno = checked < 0 ? -checked : fp ? saved : errno;
    return fp;
}

typedef FILE *libio_fopen_fn(FILE *, const char *, const char *, int);
typedef FILE *libio_open_fn(FILE *, const char *, int, int, int, int);

static FILE *file_fopen_hook(FILE *fp, const char *path, const char *mode, int is32not64,
                             libio_fopen_fn *real)
{
    int saved = errno, flags;
    struct rg_ctx *c;
    if (rg_crit_inside() || !path || !mode || !rg_fopen_flags(mode, &flags) || !(c = rg_enter()))
        return real(fp, path, mode, is32not64);
    int checked = libio_check(c, "_IO_file_fopen", path, flags);
    FILE *r = checked < 0 ? NULL : RG_PAUSED(real(fp, path, mode, is32not64));
    return libio_done(c, r, flags, checked, saved);
}

static FILE *file_open_hook(FILE *fp, const char *path, int flags, int prot, int rw, int is32not64,
                            libio_open_fn *real)
{
    int saved = errno;
    struct rg_ctx *c;
    if (rg_crit_inside() || !path || !(c = rg_enter()))
        return real(fp, path, flags, prot, rw, is32not64);
    int checked = libio_check(c, "_IO_file_open", path, flags);
    FILE *r = checked < 0 ? NULL : RG_PAUSED(real(fp, path, flags, prot, rw, is32not64));
    return libio_done(c, r, flags, checked, saved);
}

#define HOOK_IO_FILE_FOPEN(sym)                                                      \
    RG_EXPORT FILE *sym(FILE *fp, const char *path, const char *mode, int is32not64) \
    {                                                                                \
        return file_fopen_hook(fp, path, mode, is32not64, RG_REAL(sym));             \
    }

#define HOOK_IO_FILE_OPEN(sym)                                                                  \
    RG_EXPORT FILE *sym(FILE *fp, const char *path, int flags, int prot, int rw, int is32not64) \
    {                                                                                           \
        return file_open_hook(fp, path, flags, prot, rw, is32not64, RG_REAL(sym));              \
    }

#define HOOK_FOPEN(sym)                                     \
    RG_EXPORT FILE *sym(const char *path, const char *mode) \
    {                                                       \
        return fopen_hook(#sym, path, mode, RG_REAL(sym));  \
    }

#define HOOK_FREOPEN(sym)                                                 \
    RG_EXPORT FILE *sym(const char *path, const char *mode, FILE *stream) \
    {                                                                     \
        return freopen_hook(#sym, path, mode, stream, RG_REAL(sym));      \
    }

#define HOOK_FCLOSE(sym) \
    RG_EXPORT int sym(FILE *stream) { return close_stream(stream); }

#undef RG_HOOKS_stdio
#define RG_HOOKS_stdio(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"