/* A session's table bound to its file. Processes join a session by the path
 * READGUARD_SESSION names, and a path says nothing of which file is there:
 * a process that can rename the directory holding the table can put a table
 * of its own making under that name, one that says the session read files
 * it never read, and the session's next process would join it and let its
 * blind writes through. Content cannot tell the two apart: whoever can read
 * the table (any process of the user) can copy it, id and all. Its inode
 * cannot be copied: while the session's table lives, no other file on its
 * device has its number. So whoever hands a table to a tree also hands its
 * device and inode, in READGUARD_SESSION_FILE, and a process that attaches
 * the table at that path and finds another file there does not join it.
 *
 * The binding names the path it is for (a hash of it): a process that is
 * told to join another table by name is not held to this one's file. */
#ifndef RG_TABLEBIND_H
#define RG_TABLEBIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RG_ENV_SESSION_FILE "READGUARD_SESSION_FILE"
/* "DEV:INO:PATHHASH", each 16 hex digits, and the NUL. */
#define RG_TABLEBIND_MAX (3u * 17u)

enum rg_tablebind {
    RG_BIND_NONE,     /* no binding for this path: join by name, as before */
    RG_BIND_MATCH,    /* the file at the path is the session's */
    RG_BIND_MISMATCH, /* another file is at the path: do not join it */
};

/* Writes the binding of the table at path, which is dev/ino, to out
 * (RG_TABLEBIND_MAX bytes). */
void rg_tablebind_format(char out[RG_TABLEBIND_MAX], const char *path, uint64_t dev, uint64_t ino);

/* Does binding (the variable's value, or NULL) hold the file at path to be
 * dev/ino? A value that is not a binding binds nothing: only a launcher
 * writes it, and only the user's own environment carries it. */
enum rg_tablebind rg_tablebind_check(const char *binding, const char *path, uint64_t dev,
                                     uint64_t ino);

#endif
