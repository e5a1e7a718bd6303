/* The journal as the CLI sees it (layout in core/jrecord.h; which one a verb
 * reads: pick.h): reading every session's records back, keeping a file's
 * bytes before undo replaces them, and the "end" records that say how a
 * session left each file it changed. */
#ifndef RG_JSTORE_H
#define RG_JSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/jrecord.h"
#include "core/sha256.h"

/* One record, parsed. Strings are malloc'd. */
struct rg_jrec {
    char *session; /* the id: sessions sort by it */
    char *line;    /* the JSON line as stored */
    char *path, *op, *prog, *object, *unsaved, *time;
    int pid;
    int64_t time_ns, mtime_ns, size;
    int64_t atime_ns; /* INT64_MIN: not recorded */
    uint64_t dev, ino;
    uint32_t mode;
    int64_t uid, gid; /* -1: not recorded */
    bool exists;
};

struct rg_jlist {
    struct rg_jrec *r;
    size_t n, cap;
    size_t unread; /* indexes that could not be read whole */
};

/* The journal keeps a file that loses its last name by a link to its
 * inode (guard/journal/link.h), and a descriptor left open on the file (another
 * process's, /proc/self/fd/N) still writes to it. These tell a kept inode
 * as it was kept from one written to since. */

/* What undo and diff say of a version kept by a link that is not as it was
 * kept: not yet named by content, or named and no longer matching it. */
#define RG_JSTORE_WRITTEN                                                                   \
    "the kept version was written to after it was kept (through a descriptor left open on " \
    "the removed file, or the name it was moved to)"
#define RG_JSTORE_WRITTEN_OR_DAMAGED                                                       \
    "the kept version's bytes no longer match their name: it was written to after it was " \
    "kept (through a descriptor left open on the removed file, or the name it was moved "  \
    "to), or a power cut damaged it"
/* And of a copy whose bytes no longer match their content name. */
#define RG_JSTORE_DAMAGED                                                      \
    "the kept version is damaged (its bytes no longer match their name: part " \
    "of a copy a power cut cut short?)"

/* Does st, an inode kept for r, have the size and mtime r recorded when it
 * was kept? A write moves the mtime, which only the file's owner can set
 * back, and which the journal's own steps leave alone until the inode is
 * named by content (settle.c). Blind to a write in the very clock tick of
 * the file's last change before it was kept, which kernels before 6.13
 * (coarse timestamps) allow. */
bool rg_jstore_stamp_kept(const struct rg_jrec *r, const struct stat *st);

/* Is st the inode of objects/hex (or of what a prune set aside for it)? */
bool rg_jstore_named_by(const char *dir, const char *hex, const struct stat *st);

/* Is the inode open at fd (fstat'd as st), kept for r and not yet named by
 * content, as it was kept? Its stamp as recorded, or, where that moved,
 * the object its bytes hash to being this very inode: a settle named it,
 * having checked it, and was stopped (kill -9) before its last step, then
 * a claim of that object (a copy of the same bytes) moved the mtime. Reads
 * fd only then, and puts its offset back. 1, 0, or -1 (errno). */
int rg_jstore_kept_unchanged(const char *dir, const struct rg_jrec *r, int fd,
                             const struct stat *st);

/* Reads every session's records in dir (only session `only` if not NULL,
 * without listing the others), sorted by session, then in the order they
 * were written. An index that cannot be read whole is counted in unread,
 * the rest of it read, and the others read all the same. */
int rg_jlist_load(const char *dir, const char *only, struct rg_jlist *l);
void rg_jlist_free(struct rg_jlist *l);

/* Is r a kept version (not the "end" record of how a session left a file)? */
bool rg_jrec_is_save(const struct rg_jrec *r);
/* Is r a symbolic link made since its session began (ln -sf's temporary, a
 * test's fixture), which undo --all does not make again, as it was not
 * there before? Kept all the same: `undo NAME` makes it. */
bool rg_jrec_link_born_in_session(const struct rg_jrec *r);
/* Does undo --all of session sid restore l's record i: the session's first
 * change to a file under here (NULL: anywhere), of a name it did not make
 * by a move, nor a link born in it? Each file once, so. */
bool rg_jlist_all_takes(const struct rg_jlist *l, size_t i, const char *sid, const char *here);
/* How many records undo --all takes; born: the links it leaves for that. */
size_t rg_jlist_all_count(const struct rg_jlist *l, const char *sid, const char *here,
                          size_t *born);
/* What made r, before its id in a message: "session", or "the undo" for an
 * undo, a session of its own, whose id alone would send the user looking
 * for a session they never ran. */
const char *rg_jrec_who(const struct rg_jrec *r);
typedef bool rg_jrec_pred(const struct rg_jrec *r, const void *arg);
/* The record of l that want takes with the latest time (of those at the
 * same time, the last in l); NULL if it takes none. */
const struct rg_jrec *rg_jlist_newest(const struct rg_jlist *l, rg_jrec_pred *want,
                                      const void *arg);
/* The session that changed abs last (or session only, if not NULL), and
 * its first change: the version undo restores. NULL if none did. */
const struct rg_jrec *rg_jlist_first_change(const struct rg_jlist *l, const char *only,
                                            const char *abs);
/* Does l keep a version of a file under abs, not of abs itself? (A name
 * with none of its own may be a directory that is gone: docs after rm -rf.) */
bool rg_jlist_kept_under(const struct rg_jlist *l, const char *abs);

/* A copy of the inode that linked, a record of l, kept by a link, in the
 * state it was kept in: a later record of the same session, of the same
 * device, inode, size and mtime (rg_jstore_stamp_kept), whose bytes were
 * copied. A process of the session that writes the removed file through a
 * descriptor left open on it makes one (the shim keeps it before the
 * write). The journal's link holds the inode (unless a prune meanwhile
 * found its bytes kept already), so no other file has its number, let
 * alone with that size and mtime to the nanosecond. NULL if none. */
const struct rg_jrec *rg_jlist_copy_of(const struct rg_jlist *l, const struct rg_jrec *linked);

/* Is r, a record of l, only such a copy, under the name the kernel gives a
 * removed file ("/path (deleted)", how /proc/self/fd/N reads)? Undo of the
 * removed file's own record restores its bytes; --all must not also
 * recreate them under that name. */
bool rg_jlist_copy_only(const struct rg_jlist *l, const struct rg_jrec *r);

/* What rg_jstore_keep kept: the file's state, and its bytes by name. */
struct rg_jkept {
    struct stat st; /* st_mode 0: nothing was kept (no regular file there) */
    char hex[RG_SHA256_HEX];
};

/* Keeps the bytes of the regular file at abs in the journal, as session id
 * would. 0: kept, or nothing to keep (missing); -EAGAIN, recording
 * nothing, when the file changed while it was copied; else -errno. kept,
 * unless NULL, says what was kept. */
int rg_jstore_keep(const char *dir, const char *id, const char *abs, const char *op,
                   struct rg_jkept *kept);
/* The same, of the file name in directory at (abs is then its path, for
 * the record alone), for undo: RG_JSTORE_TOO_LARGE, nothing copied, when
 * it is larger than READGUARD_JOURNAL_MAX_FILE (or 64 MiB). */
#define RG_JSTORE_TOO_LARGE 1
int rg_jstore_keep_at(const char *dir, const char *id, int at, const char *name, const char *abs,
                      const char *op, struct rg_jkept *kept);

/* Appends session id's record of the version of abs (op op; st: its
 * state, NULL where there was none) kept as object. 0, or -errno. */
int rg_jstore_record(const char *dir, const char *id, const char *abs, const char *op,
                     const struct stat *st, const char *object);

/* Keeps the bytes of the open regular file fd, from its offset, as session
 * id's version of abs. 0, or -errno: -EFBIG, nothing copied, past
 * READGUARD_JOURNAL_MAX_FILE (or 64 MiB); -EAGAIN when it grows meanwhile. */
int rg_jstore_keep_fd(const char *dir, const char *id, const char *abs, int fd, const char *op);

/* Is the file of b the file of a, unchanged (inode, size, mtime, ctime)? */
bool rg_jstore_same_state(const struct stat *a, const struct stat *b);

/* Copies src into objects/ under its SHA-256, which it names in hex (a
 * version kept already stays as it is). 0, or -errno: -EAGAIN, nothing
 * named, past limit bytes (the size src had: one that grows has changed). */
int rg_jstore_copy(int src, const char *dir, char hex[RG_SHA256_HEX], int64_t limit);

/* The journal's cap on a copy, as a run started now would set it:
 * READGUARD_JOURNAL_MAX_FILE, or 64 MiB. */
int64_t rg_jstore_max_file(void);

/* Reads src to its end, into dst too unless dst is -1, and names what it
 * read by its SHA-256 in hex. 0, or -errno of the read or write that
 * failed. */
int rg_jstore_hash_copy(int src, int dst, char hex[RG_SHA256_HEX]);
/* Hashes src as rg_jstore_hash_copy does, -EAGAIN past limit bytes. */
int rg_jstore_hash_upto(int src, char hex[RG_SHA256_HEX], int64_t limit);
/* The same, held as rg_jstore_keep_fd holds its copy: -EFBIG, nothing
 * read, past the cap; -EAGAIN past the size src had when it began. */
int rg_jstore_hash_copy_capped(int src, int dst, char hex[RG_SHA256_HEX]);

/* Claims the kept object obj, of size bytes, for a record about to name
 * it, as the shim does (guard/journal/copy.c): its mtime made new, then seen
 * still there, a regular file of that size. A prune moves aside and
 * removes only what is old by then. 0, or -errno (-ENOENT: a prune took
 * it meanwhile, or it was no such file and is moved aside; store it
 * again). */
int rg_jstore_claim(const char *obj, int64_t size);

/* The path of object name in journal dir: under its own name, or under the
 * name a prune killed while judging it left it (RG_JOURNAL_ASIDE), or a
 * settled linked name's content object left so. */
void rg_jstore_object(char *out, size_t cap, const char *dir, const char *name);

/* Appends session id's "end" record for the file name in directory at,
 * recorded as abs: how the file is now (guard/journal/end.h). */
int rg_jstore_end_at(const char *dir, const char *id, int at, const char *name, const char *abs);

/* Appends an "end" record for each path session id changed. */
void rg_jstore_close_session(const char *dir, const char *id);

/* The name a version's bytes hash to: its object's, or, for a linked name
 * settled since, the one its symbolic link leads to (read into target).
 * NULL for a linked name not yet settled: the inode itself, with no hash
 * to check. */
const char *rg_jstore_content_name(const char *dir, const struct rg_jrec *r,
                                   char target[RG_JOURNAL_OBJECT_MAX]);

/* Do r's kept bytes still hash to their name? Nothing in the journal is
 * fsync'd, so a power cut can leave part of a copy under the name of the
 * whole. A version kept by a link and not yet named by content has no
 * name to check: it must be as it was kept (rg_jstore_kept_unchanged).
 * 1, 0 (damaged, or written to) or -1 (errno). */
int rg_jstore_intact(const char *dir, const struct rg_jrec *r);

#endif
