/* The open system call of a guarded open, as the request asks it (openat,
 * or openat2 with its resolve flags): shared by the read path (calls.c) and
 * the write-mode open (wopen.c). */
#ifndef RG_SYSOPEN_H
#define RG_SYSOPEN_H

#include <linux/openat2.h>

#include "core/request.h"
#include "guard/critical.h"
#include "os/sys.h"
/* The library opens what the program asked. The command (the supervisor,
 * opening in a trapped process's name) adds O_NOCTTY: no file of the tree
 * may become its controlling terminal. Not in the request's flags, which
 * the policy judges as the caller gave them. */
#ifdef RG_LIBRARY
#define RG_OPEN_OWN_FLAGS 0
#else
#define RG_OPEN_OWN_FLAGS O_NOCTTY
#endif

/* Inline: a read's open is made by this and nothing else. */
static inline __attribute__((always_inline)) int rg_open_now(const struct rg_request *req,
                                                             int flags)
{
    flags |= flags & O_PATH ? 0 : RG_OPEN_OWN_FLAGS; /* openat2 refuses O_PATH with others */
    mode_t mode = rg_flags_need_mode(flags) ? req->mode : 0;
    if (!req->resolve)
        return rg_sys_openat(req->dirfd, req->path, flags, mode);
    struct open_how how = {
        .flags = (uint64_t)(unsigned)flags, .mode = mode, .resolve = req->resolve};
    return rg_sys_openat2(req->dirfd, req->path, &how, sizeof how);
}

/* A FIFO or a tty may keep an open waiting: wait with the program's signal
 * mask (guard/critical.h). Inline: outside the critical section, as a
 * write's open is, the pause is one test. */
static inline int rg_open_paused(const struct rg_request *req, int flags)
{
    return RG_PAUSED(rg_open_now(req, flags));
}

#endif
