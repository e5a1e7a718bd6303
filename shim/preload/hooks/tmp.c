/* mkstemp and friends create a new file with O_EXCL, so there is nothing to
 * check; the file is recorded as the session's own so it stays writable. */
#include <stdlib.h>

#include "preload/hook.h"

static int created(int fd)
{
    int saved = errno;
    struct rg_ctx *c = fd >= 0 ? rg_enter() : NULL;
    if (c) {
        rg_note_write(c, fd, NULL);
        rg_leave();
        errno = saved;
    }
    return fd;
}

int mkstemp64(char *template);
int mkostemp64(char *template, int flags);
int mkstemps64(char *template, int suffixlen);
int mkostemps64(char *template, int suffixlen, int flags);

RG_EXPORT int mkstemp(char *t) { return created(RG_REAL(mkstemp)(t)); }
RG_EXPORT int mkstemp64(char *t) { return created(RG_REAL(mkstemp64)(t)); }
RG_EXPORT int mkostemp(char *t, int fl) { return created(RG_REAL(mkostemp)(t, fl)); }
RG_EXPORT int mkostemp64(char *t, int fl) { return created(RG_REAL(mkostemp64)(t, fl)); }
RG_EXPORT int mkstemps(char *t, int n) { return created(RG_REAL(mkstemps)(t, n)); }
RG_EXPORT int mkstemps64(char *t, int n) { return created(RG_REAL(mkstemps64)(t, n)); }
RG_EXPORT int mkostemps(char *t, int n, int fl) { return created(RG_REAL(mkostemps)(t, n, fl)); }
RG_EXPORT int mkostemps64(char *t, int n, int fl)
{
    return created(RG_REAL(mkostemps64)(t, n, fl));
}
