/* A program the preload cannot guard (static, Go, setuid, a musl program
 * with no musl shim...) is named when a session process execs it, once per
 * program per session: one line on stderr, saying that --supervise reaches
 * it, and one in the log. Shared by the shim's exec hooks and by
 * readguard run's first exec. No allocation, no libc state: it runs in vfork
 * children. */
#ifndef RG_UNGUARDED_H
#define RG_UNGUARDED_H

#include <stdint.h>

#include "core/progkind.h"
#include "core/table.h"

struct rg_unguarded {
    const char *path;  /* as exec'd */
    const char *call;  /* the entry point: execve, posix_spawn, ... */
    const char *prog;  /* the process that execs it */
    enum rg_prog kind; /* why: static, Go, setid, musl (no musl shim), other loader */
    uint64_t dev, ino;
};

/* Says so, once per session, on err_fd (-1: only in the log). h is the
 * session's mapped header, or NULL to map session_path's for the moment. */
void rg_unguarded_notice(struct rg_header *h, const char *session_path,
                         const struct rg_unguarded *u, int err_fd);

#endif
