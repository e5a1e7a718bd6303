/* Carrying out decisions. Each function takes one decoded request, gathers
 * the facts (fstat of what it opened, the table entry), asks rg_decide() and
 * then either performs the call through os/sys.h or refuses it. Results are
 * kernel style: a descriptor or 0, else -errno. */
#ifndef RG_CALLS_H
#define RG_CALLS_H

#include <sys/stat.h>
#include <sys/types.h>

#include "core/request.h"
#include "guard/ctx.h"
#include "guard/dircache.h"
#include "guard/meta.h"
#include "guard/wopen.h"
/* Records the read-mode open req made on fd. */
void rg_record_read(struct rg_ctx *c, const struct rg_request *req, int fd);
/* The same for a read-mode open of path from dirfd, neither O_PATH nor
 * O_DIRECTORY, made on fd >= 0; errno is kept, fd returned. */
int rg_record_read_at(struct rg_ctx *c, int dirfd, const char *path, int fd);
/* The same for any read-mode open already made (fd < 0: nothing), unless
 * its file lies outside every root. Inline: a read outside the roots (most
 * of a compiler's) is answered here without a call into the guard. */
static inline void rg_guard_opened_read(struct rg_ctx *c, const struct rg_request *req, int fd)
{
    if (fd >= 0 && !(req->resolve == 0 && rg_read_outside_roots(c, req->path)))
        rg_record_read(c, req, fd);
}
/* Carries out the open req asks for, judged if it is a write, recorded if a
 * read, with the descriptor's stat in st (st_mode 0 if there is none): a
 * read is recorded from that one fstat, where a caller that needs the stat
 * too (the supervisor) would make a second; a write's is the one it was
 * judged on (rg_guard_opened_write_stat). */
int rg_guard_open_stat(struct rg_ctx *c, const struct rg_request *req, struct stat *st);
/* Its record alone, of a read-mode open made and stated (st) already: for
 * the supervisor, which records some reads once the caller holds the
 * descriptor (supervise/open.c). */
void rg_guard_opened_read_stat(struct rg_ctx *c, const struct rg_request *req, int fd,
                               const struct stat *st);
/* The same open, unchecked: for calls that re-enter the shim. */
int rg_open_unguarded(const struct rg_request *req);
/* The same, by a thread outside the critical section (the read path), where
 * the program's mask is in force already: nothing to pause. */
int rg_open_outside(const struct rg_request *req);
/* req names the destination; the source is olddirfd/oldpath. */
int rg_guard_rename(struct rg_ctx *c, const struct rg_request *req, int olddirfd,
                    const char *oldpath, unsigned flags);
/* A program's metadata call (guard/meta.h), made by rg_guard_meta once a
 * time it sets cannot pass for a write to a version the journal holds by
 * a link (rg_journal_keep_retimed). */
long rg_guard_meta_change(struct rg_ctx *c, const struct rg_meta_file *f,
                          const struct rg_meta_call *call);

/* linkat(req->dirfd, req->path, req->to_dirfd, req->to_path, flags): a new
 * name outside guarded scope for a file the session may not write is
 * refused (guard/names.h). */
int rg_guard_link(struct rg_ctx *c, const struct rg_request *req, int flags);
/* The same, judged on and made through fd, an O_PATH descriptor on the file
 * req names, opened once: a name re-pointed between the look and the link
 * cannot bring in another file. req keeps the program's names, which the
 * judgement and its messages go by (the descriptor's /proc name is no name
 * of the file's); its to_dirfd and to_path, the new name. */
int rg_guard_link_fd(struct rg_ctx *c, const struct rg_request *req, int fd, int flags);
int rg_guard_truncate(struct rg_ctx *c, const struct rg_request *req, off_t length);
/* ftruncate; refused with the reason on a touch stand-in descriptor. */
int rg_guard_ftruncate(struct rg_ctx *c, const char *call, int fd, off_t length);
/* unlinkat(dirfd, path, flags): refused only with --guard-unlink, journaled
 * unless --no-journal; the caller skips this when neither applies. */
int rg_guard_unlink(struct rg_ctx *c, const struct rg_request *req, int flags);
/* Checks an open that the C library makes unseen (a spawned child's file
 * action, freopen, fopen with ",ccs="), and keeps the file's old bytes
 * first, as a guarded open does; 0, -EACCES, or RG_CHECKED_UNREAD: an
 * append --allow-append lets through unread, whose descriptor the caller
 * must not note as a write (it would make the file the session's). */
int rg_guard_check_path(struct rg_ctx *c, const struct rg_request *req);
#define RG_CHECKED_UNREAD 1

/* Records a read-mode open of fd already made by the program itself. */
void rg_note_read(struct rg_ctx *c, int fd, int flags);

#endif
