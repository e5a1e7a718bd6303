/* Keeping the old bytes: before a session's first destructive change to a
 * file that existed before it (an overwrite, truncate, rename over, unlink
 * or exchange, or a rename of it away, after which a new file may take its
 * name), the file's bytes are copied into the journal, so that
 * `readguard undo` can bring them back. Shared by the preload and the
 * supervisor, like guard/calls.c.
 *
 * A file about to lose its last name, or to move away, is kept by a link
 * (guard/journal/link.h), any other by a copy (guard/journal/copy.h); either is complete
 * under its name in objects/ and recorded in the session's index
 * (guard/journal/index.h) before the change is carried out: a kill -9 at any
 * instant leaves the file untouched, or its bytes kept whole. Nothing is
 * fsync'd: the copy outlives the process, not a power cut (README:
 * Journal). */
#ifndef RG_JKEEP_H
#define RG_JKEEP_H

#include <stdbool.h>
#include <sys/stat.h>

#include "core/policy.h"
#include "core/request.h"
#include "guard/ctx.h"
/* Is journaling on for this session? One flag test. */
static inline bool rg_journal_on(const struct rg_ctx *c)
{
    return c->table.hdr && !(c->policy & RG_POLICY_NO_JOURNAL) && c->table.hdr->journal_dir[0];
}

/* Are the bytes of a file so stamped, whose record is r, the
 * session's own? When the stamp is its own write, or a process of the
 * session holds it open for writing right now (writer_alive: r's last
 * writer does): the first writer kept the old bytes before it counted
 * itself a writer (and before it truncated), so concurrent writers keep
 * them once. Two that both look before either counts keep the same object,
 * stored once. The entry names only the last writer, and only it is
 * believed: a count left by writers killed with the file open (kill -9
 * runs no close) never comes down, and taken as writers at work it would
 * make every later version the session's own, another program's too.
 * Where the one named has let go while others write, the bytes are kept
 * again: a copy more, never a version lost. */
static inline bool rg_journal_owns_as(const struct rg_record *r, bool writer_alive,
                                      int64_t mtime_ns, int64_t ctime_ns, int64_t size)
{
    if (r->writers > 0 && writer_alive)
        return true;
    return rg_record_own_as(r, mtime_ns, ctime_ns, size);
}

/* Does rg_journal_keep find at its first test, before it looks at the
 * path, that f's file needs nothing kept: the journal off, not a regular
 * file, no name left, or the bytes the session's own by the facts of a
 * judgement just made? Lock-free, for a hook outside the critical section:
 * the facts hold the record and whether its writer is alive, so the entry
 * is not loaded again; f is rg_file_of the judgement's own fstat, whose
 * stamp is then not worked out from it twice. */
static inline bool rg_journal_keeps_nothing(const struct rg_ctx *c, const struct rg_file *f,
                                            const struct rg_facts *facts)
{
    return !rg_journal_on(c) || !f->regular || f->unnamed ||
           rg_journal_owns_as(&facts->rec, facts->writer_alive, f->mtime_ns, f->ctime_ns, f->size);
}

/* Keeps the bytes of the file st describes, about to be changed by req (op
 * names the change: "write", "rename", "truncate", "unlink", "exchange"),
 * unless they need no keeping: not a regular file (a symbolic link an
 * unlink or a rename over it takes away is kept, by a link only), no name left to undo
 * to, the session's own write, outside the roots or free. fd: a
 * descriptor on it (any access mode), or -1 to open dirfd/path (following a
 * final symlink only if follow). act: what rg_ask answered. Returns act,
 * unless act was RG_ALLOW_KEPT (the write is allowed only because the
 * bytes are kept) and they could not be: then the policy's answer knowing
 * why, a refusal logged as any other. What goes ahead unkept is logged as
 * unsaved. *linked (may be NULL): the file was kept by a link; should the
 * change then fail, the caller calls rg_journal_unkeep. */
enum rg_action rg_journal_keep(struct rg_ctx *c, const struct rg_request *req, const char *op,
                               int fd, bool follow, const struct stat *st, enum rg_action act,
                               bool *linked);

/* rg_journal_keep, for an append --allow-append lets through: *kept says
 * the file's bytes are in the journal now, kept by this call. */
enum rg_action rg_journal_keep_append(struct rg_ctx *c, const struct rg_request *req, int fd,
                                      bool follow, const struct stat *st, enum rg_action act,
                                      bool *kept);

/* The file dirfd/path names itself, not a final symlink's target, opened
 * O_PATH (enough to judge it and to link it) and its fstat in *st: one open
 * for both the policy and the journal, who then see the same inode. *plain:
 * no symbolic link was followed on the way (RESOLVE_NO_SYMLINKS), so the
 * path is the file's real one. The descriptor, or a negative errno. */
int rg_journal_open(const struct rg_request *req, struct stat *st, bool *plain);

/* rg_journal_keep of the file open on pfd (from rg_journal_open, whose st
 * and plain they are), not following a final symlink; pfd is closed. */
enum rg_action rg_journal_keep_opened(struct rg_ctx *c, const struct rg_request *req,
                                      const char *op, int pfd, bool plain, const struct stat *st,
                                      enum rg_action act, bool *linked);

/* The same for the file a rename is about to replace, by its path; op is
 * "rename" or "exchange". 1 when kept by a link, 0 when not, -EACCES when
 * refused (as rg_journal_keep), -ESTALE (with nothing kept or logged) when
 * the path names another file by now, which a sibling renamed over it
 * after the check: the caller judges that one. */
int rg_journal_keep_replaced(struct rg_ctx *c, const struct rg_request *req, const char *op,
                             const struct stat *st, enum rg_action act);

/* Keeps the file req names (st: as judged), which a rename is about to move
 * away from that name to to, unless its bytes are the session's own (an atomic
 * save's temp file), outside the roots or free: by a link, as op "move";
 * by a copy where to is out of guarded scope.
 * A move destroys nothing, so what cannot be kept is neither logged nor
 * refused; nor is the file marked kept, as it lives on under its new name
 * and a write there must keep its bytes again. */
void rg_journal_keep_moved(struct rg_ctx *c, const struct rg_request *req,
                           const struct rg_request *to, const struct stat *st);

/* rg_journal_keep_moved's keep, by a copy, of a file a directory moved out
 * of guarded scope takes along (guard/names.c). */
void rg_journal_keep_leaving(struct rg_ctx *c, const struct rg_request *req, const struct stat *st);

/* Keeps, by a copy, the file a call setting its times names (as
 * rg_meta_file does: dirfd, path and AT_* flags) where the journal may hold
 * it by a link still (a move's, rg_journal_keep_moved): undo tells a write
 * to that inode by its mtime, so a time the session sets (touch, cp -p
 * onto it) would make the kept version look written to. A copy first, made
 * as a write's would be and found by undo the same way, keeps it exact.
 * Only a file with a second name asks anything more than one fstat. */
void rg_journal_keep_retimed(struct rg_ctx *c, int dirfd, const char *path, int flags);

/* The change after rg_journal_keep returned true failed: drop the link that
 * kept the file, which is still there and may yet change. */
void rg_journal_unkeep(struct rg_ctx *c, const struct rg_request *req, const struct stat *st);

#endif
