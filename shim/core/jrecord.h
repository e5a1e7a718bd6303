/* One record of a session's journal index: a version of a file kept before
 * the session changed it, or why it was not kept. Pure formatting and
 * parsing, shared by the shim (which writes records, and reads its
 * session's back as the session ends) and the CLI (which reads them back
 * and writes its own for undo). */
#ifndef RG_JRECORD_H
#define RG_JRECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jsonl.h"
#include "core/sha256.h"
/* The journal's layout under its directory (the header's journal_dir):
 *   objects/HEX       the bytes of each kept version, named by SHA-256, 0600
 *   objects/ino-D-I-C a file kept by a link as it lost its last name (an
 *                     unlink, a rename over it): inode I of device D, as it
 *                     was at ctime C. The CLI names it by content later,
 *                     leaving a symlink to HEX (cli/journal/settle.c).
 *   sessions/ID.jsonl each session's records, appended one line at a time
 * ID is "<created_ns>-<creator pid>" of the session table, so sessions sort
 * by the time they started. A record's object is a name in objects/. */
#define RG_JOURNAL_OBJECTS "objects"
/* The prefix of an object that a prune has moved aside while it judges it
 * (cli/journal/prune.c): where a kill -9 leaves it, it is still the object. */
#define RG_JOURNAL_ASIDE ".prune-"
#define RG_JOURNAL_SESSIONS "sessions"
/* An empty file in each folder, that keeps it from ever being empty: a
 * --strict tree may not remove it (supervise/jseal.c), and rmdir(2), which
 * the filter does not see, cannot remove a folder that holds a name. No
 * object, and no index. */
#define RG_JOURNAL_PIN ".pin"
#define RG_JOURNAL_ID_MAX 48
#define RG_JOURNAL_LINKED "ino-"
#define RG_JOURNAL_OBJECT_MAX 80

/* The op of a file renamed away from its name (sed -i~ and mv -b move it to
 * a backup name, then make a new file under it): kept as it left, so undo
 * of the name finds its bytes, whatever later becomes of the new name. */
#define RG_JOURNAL_OP_MOVE "move"

/* How a session left a file (undo tells a later change by it,
 * guard/journal/end.h); with an empty path, in journals of earlier builds,
 * that the whole session ended then. */
#define RG_JOURNAL_OP_END "end"

/* Default per-file cap (--journal-max-file): a larger file is logged as not
 * kept. Whole-journal caps are the CLI's (cli/journal/prune.h). */
#define RG_JOURNAL_FILE_MAX (64LL << 20)

struct rg_jrecord {
    int64_t time_ns;
    int pid;
    const char *prog;
    const char *op; /* "write", "rename", "truncate", "unlink", "exchange", "move", "link",
                       "times", "undo"; "end": the file as the session left it (no object) */
    const char *call;
    const char *path; /* absolute; any bytes: one that is not UTF-8 is written
                         as "path" for people and "path_bytes" to read back */
    uint64_t dev, ino;
    uint32_t mode, uid, gid;
    int64_t mtime_ns, atime_ns, size;
    int exists;          /* "end" records: the path was there when the session ended */
    const char *object;  /* its name in objects/, or NULL when not kept */
    const char *unsaved; /* why not, when object is NULL */
};

/* The session id of a table header's created_ns and creator_pid. */
void rg_journal_id(char out[RG_JOURNAL_ID_MAX], int64_t created_ns, int32_t creator_pid);

/* "1795468256807933359-12987": a session id as history prints it. */
bool rg_journal_is_id(const char *s);

/* The name of a version kept by a link: unique to the inode and its state
 * (ctime), so two processes that keep it at once make one name. Its
 * length, which a caller joining it to the directory needs. */
size_t rg_jobject_linked(char out[RG_JOURNAL_OBJECT_MAX], uint64_t dev, uint64_t ino,
                         int64_t ctime_ns);

/* Is name one the journal makes: a SHA-256 in hex, or a linked name? What a
 * record says is checked before it becomes part of a path. */
bool rg_jobject_valid(const char *name);

/* Is it a linked name, waiting to be named by content? */
bool rg_jobject_is_linked(const char *name);

/* How every record begins. No value can hold it (its quotes would be
 * escaped), so on a line where a record cut short by a short write (a full
 * disk, RLIMIT_FSIZE) ran into the next one appended, the last of these
 * begins the record that was written whole. */
#define RG_JRECORD_START "{\"time\":\""

/* Formats r as one JSON object and a newline; 0 when it does not fit. */
size_t rg_jrecord_format(char *out, size_t cap, const struct rg_jrecord *r);

/* Parses the line at *line (no newline) into o. A line that does not parse
 * may hold a record cut short and, after it, one written whole (above):
 * that one is read, and *line moved to it. False when none parses, or the
 * record has no path or op. */
bool rg_jrecord_parse(const char **line, struct rg_jobject *o);

/* The path o names, as bytes (its "path_bytes" where it is not UTF-8),
 * into out. False when it does not fit in cap bytes. */
bool rg_jrecord_path(const struct rg_jobject *o, char *out, size_t cap);

#endif
