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

#define HOOK_MKSTEMP(sym) \
    RG_EXPORT int sym(char *t) { return created(RG_REAL(sym)(t)); }

#define HOOK_MKOSTEMP(sym) \
    RG_EXPORT int sym(char *t, int fl) { return created(RG_REAL(sym)(t, fl)); }

#define HOOK_MKSTEMPS(sym) \
    RG_EXPORT int sym(char *t, int n) { return created(RG_REAL(sym)(t, n)); }

#define HOOK_MKOSTEMPS(sym) \
    RG_EXPORT int sym(char *t, int n, int fl) { return created(RG_REAL(sym)(t, n, fl)); }

#undef RG_HOOKS_tmp
#define RG_HOOKS_tmp(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"