/* The journal as the CLI sees it (layout in ../jrecord.h; which one a verb
 * reads: jpick.h): reading every session's records back, keeping a file's
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

/* Does st, an inode the journal kept by a link, still have the size r
 * recorded when it was kept? Not its mtime: naming the inode by its bytes
 * sets that (jsettle.c), and a kill can stop it there. So a write that
 * keeps the size goes unseen. */
bool rg_jstore_kept_as_recorded(const struct rg_jrec *r, const struct stat *st);

/* Writes all n bytes of buf to fd: 0, or -errno. */
int rg_jstore_write_all(int fd, const char *buf, size_t n);

/* Reads every session's records in dir (only session `only` if not NULL,
 * without listing the others), sorted by session, then in the order they
 * were written. An index that cannot be read whole is counted in unread,
 * the rest of it read, and the others read all the same. */
int rg_jlist_load(const char *dir, const char *only, struct rg_jlist *l);
void rg_jlist_free(struct rg_jlist *l);

/* Is r a kept version (not the "end" record of how a session left a file)? */
bool rg_jrec_is_save(const struct rg_jrec *r);
/* The most recent session that changed abs (or session only, if not NULL),
 * and its first change: the version undo restores. NULL if none did. */
const struct rg_jrec *rg_jlist_first_change(const struct rg_jlist *l, const char *only,
                                            const char *abs);

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
 * the record alone). */
int rg_jstore_keep_at(const char *dir, const char *id, int at, const char *name, const char *abs,
                      const char *op, struct rg_jkept *kept);

/* Keeps the bytes of the open regular file fd, from its offset, as session
 * id's version of abs. 0, or -errno. */
int rg_jstore_keep_fd(const char *dir, const char *id, const char *abs, int fd, const char *op);

/* Is the file of b the file of a, unchanged (inode, size, mtime, ctime)? */
bool rg_jstore_same_state(const struct stat *a, const struct stat *b);

/* Copies src into objects/ under its SHA-256, which it names in hex (a
 * version kept already stays as it is). 0, or -errno. */
int rg_jstore_copy(int src, const char *dir, char hex[RG_SHA256_HEX]);

/* Reads src to its end, into dst too unless dst is -1, and names what it
 * read by its SHA-256 in hex. 0, or -errno of the read or write that
 * failed. */
int rg_jstore_hash_copy(int src, int dst, char hex[RG_SHA256_HEX]);

/* Claims the kept object obj, of size bytes, for a record about to name
 * it, as the shim does (guard/jcopy.c): its mtime made new, then seen
 * still there, a regular file of that size. A prune moves aside and
 * removes only what is old by then. 0, or -errno (-ENOENT: a prune took
 * it meanwhile, or it was no such file and is moved aside; store it
 * again). */
int rg_jstore_claim(const char *obj, int64_t size);

/* The path of object name in journal dir: under its own name, or under the
 * name a prune killed while judging it left it (RG_JOURNAL_ASIDE), or a
 * settled linked name's content object left so. */
void rg_jstore_object(char *out, size_t cap, const char *dir, const char *name);

/* Appends session id's "end" record for abs: how the file is now. */
int rg_jstore_end(const char *dir, const char *id, const char *abs);
/* The same, of the file name in directory at, recorded as abs. */
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
 * whole. 1 (or nothing to check), 0 (damaged) or -1 (errno). */
int rg_jstore_intact(const char *dir, const struct rg_jrec *r);

#endif
