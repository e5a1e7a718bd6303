/* The guarded write-mode open, in two halves. The first opens the file as
 * the decision needs it (untruncated, never created over an existing one)
 * and needs no context, so a hook makes it before it enters the critical
 * section: it would be made with the program's signal mask anyway (it may
 * wait on a FIFO), and that saves the pause's two rt_sigprocmask calls.
 * The second judges what was opened and carries the decision out
 * (truncates, tracks, or closes and refuses): at once, outside the critical
 * section, when the answer is the common one, else inside. */
#ifndef RG_WOPEN_H
#define RG_WOPEN_H

#include <stdbool.h>
#include <sys/stat.h>

#include "core/request.h"
#include "guard/critical.h"
#include "guard/ctx.h"
#include "guard/sysopen.h"
struct rg_write_open {
    int fd;           /* the descriptor, or -errno */
    bool created;     /* O_CREAT|O_EXCL or O_TMPFILE: nothing was there to judge */
    bool fresh;       /* the open created the file */
    bool maybe_fresh; /* it may have, if the file is empty */
    bool stated;      /* st holds fd's fstat (rg_guard_write_at_once) */
    struct stat st;
};
/* rg_open_write's every case but the common one. */
void rg_open_write_made(const struct rg_request *req, struct rg_write_open *w);
/* Opens req's target as the judgement needs it: untruncated, and created
 * only where nothing was there (w->fresh). Inline: a write without O_CREAT
 * made outside the critical section, nearly every editor's and tool's
 * overwrite, is the open itself, with no pause to take and nothing to
 * create. */
static inline void rg_open_write(const struct rg_request *req, struct rg_write_open *w)
{
    if (!(req->flags & RG_O_CREATES) && !rg_crit_inside()) {
        w->created = w->fresh = w->maybe_fresh = w->stated = false;
        w->fd = rg_open_now(req, req->flags & ~O_TRUNC);
        return;
    }
    rg_open_write_made(req, w);
}
/* The common write, judged and carried out outside the critical section:
 * an existing file (fd below RG_FDMAP_SIZE) the policy allows at first look,
 * whose old bytes the journal need not keep (the session's own), or one the
 * open made. Only lock-free loads and stores of the table and the fast
 * descriptor slots, and the pure policy: work a signal handler's hooks may
 * interrupt, as another thread's may run beside it, as a read's record is.
 * True: done, w->fd is the result. False: nothing done but w->st filled
 * (w->stated) where the fstat was made; rg_guard_opened_write, inside,
 * finishes it. Either way errno is as it was, as after rg_open_write: the
 * hook saves it only once both are past (preload/hooks/open.c). */
bool rg_guard_write_at_once(struct rg_ctx *c, const struct rg_request *req,
                            struct rg_write_open *w);
int rg_guard_opened_write(struct rg_ctx *c, const struct rg_request *req,
                          const struct rg_write_open *w);
/* The same, leaving in *st the one fstat the judgement was made on (st_mode
 * 0 if none): the supervisor needs it after, and a second fstat of the same
 * descriptor is a system call per write-open. Its device, inode and type
 * are the descriptor's for good; the rest (size, mode, owner) is as judged,
 * before any keep or truncation the judgement made. */
int rg_guard_opened_write_stat(struct rg_ctx *c, const struct rg_request *req,
                               const struct rg_write_open *w, struct stat *st);
/* Tracks fd, opened for writing by the program itself (mkstemp, a
 * checked-then-opened stream), as the session's own writer. */
void rg_note_write(struct rg_ctx *c, int fd, void *stream);

#endif
