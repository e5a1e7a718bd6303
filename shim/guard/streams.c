#include "guard/streams.h"
#include <errno.h>
#include <stdio.h>

#include "core/hot.h"

/* Does stream hold output not yet written? Only then is it flushed: most
 * processes that reach here wrote nothing through stdio, and the flush
 * would bind three libc functions at exit. Read unlocked, as ftrylockfile
 * below gives up on a held lock anyway; glibc's FILE is public, and a wide
 * stream buffers apart from these pointers. */
RG_START_TEXT bool rg_stream_pending(void *stream)
{
    const FILE *fp = stream;
#ifdef __GLIBC__
    return fp->_mode > 0 || fp->_IO_write_ptr > fp->_IO_write_base;
#else
    (void)fp;
    return true;
#endif
}

RG_START_TEXT void rg_flush_pending(void *stream)
{
    /* stdio flushes after destructors run; flush now so the stamp sees the
     * bytes, but never wait for a lock another thread may hold forever. */
    FILE *fp = stream;
    if (fp && rg_stream_pending(fp)) {
        int saved = errno;
        if (ftrylockfile(fp) == 0) {
            fflush_unlocked(fp);
            funlockfile(fp);
        }
        errno = saved;
    }
}

#ifdef __GLIBC__
/* The head of glibc's list of open streams: exported by its libio, for
 * libstdc++, and declared by no header since glibc 2.28 dropped libio.h. */
extern FILE *_IO_iter_begin(void);
#endif

/* On glibc, the streams are found on its list of them rather than through
 * stdout and stderr: ld.so looks up each variable a library refers to when
 * it loads it, in every process (about 630 instructions each), while this
 * function is bound only here (about 700), by the few processes that exit
 * with a regular file on 0-2. The list is walked unlocked, as exit's own
 * flush walks it, newest first, the order that flush writes in. */
RG_START_TEXT void rg_flush_std_pending(void)
{
#ifdef __GLIBC__
    for (FILE *fp = _IO_iter_begin(); fp; fp = fp->_chain)
        if (fp->_fileno >= 0 && fp->_fileno <= 2)
            rg_flush_pending(fp);
#else
    rg_flush_pending(stdout);
    rg_flush_pending(stderr);
#endif
}
