/* Carrying out decisions. Each function takes one decoded request, gathers
 * the facts (fstat of what it opened, the table entry), asks rg_decide() and
 * then either performs the call through sys.h or refuses it. Results are
 * kernel style: a descriptor or 0, else -errno. */
#ifndef RG_GUARD_H
#define RG_GUARD_H

#include <sys/types.h>

#include "guard/ctx.h"
#include "core/request.h"

/* Records a read-mode open already made (fd < 0: nothing). */
void rg_guard_opened_read(struct rg_ctx *c, const struct rg_request *req, int fd);
int rg_guard_open(struct rg_ctx *c, const struct rg_request *req);
/* The same open, unchecked: for calls that re-enter the shim. */
int rg_open_unguarded(const struct rg_request *req);
/* req names the destination; the source is olddirfd/oldpath. */
int rg_guard_rename(struct rg_ctx *c, const struct rg_request *req, int olddirfd,
                    const char *oldpath, unsigned flags);
int rg_guard_truncate(struct rg_ctx *c, const struct rg_request *req, off_t length);
/* ftruncate; refused with the reason on a touch stand-in descriptor. */
int rg_guard_ftruncate(struct rg_ctx *c, const char *call, int fd, off_t length);
/* unlinkat(dirfd, path, flags); the caller skips this unless --guard-unlink. */
int rg_guard_unlink(struct rg_ctx *c, const struct rg_request *req, int flags);
/* Checks an open that a spawned child will make; 0 or -EACCES. */
int rg_guard_check_path(struct rg_ctx *c, const struct rg_request *req);

/* Bookkeeping around descriptors the program manages itself. */
void rg_note_read(struct rg_ctx *c, int fd, int flags);
void rg_note_write(struct rg_ctx *c, int fd, void *stream);
void rg_note_close(struct rg_ctx *c, int fd);
void rg_note_dup(struct rg_ctx *c, int oldfd, int newfd);
void rg_note_close_range(struct rg_ctx *c, int first, int last);
/* Before exec: restamp descriptors that exec is about to close. Touches no
 * process-local state a vfork parent shares. */
void rg_note_exec(struct rg_ctx *c);
void rg_restamp_at_exit(struct rg_ctx *c);

#endif
