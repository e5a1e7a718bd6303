/* A symbolic link in the journal: one a session removed or renamed a file
 * over, which the shim keeps by a link to its inode, or where the journal
 * is on another file system by a new link with its target, under the same
 * name (guard/journal/link.c), and one undo replaces, kept here the same
 * way. Its record's mode says it
 * is a symbolic link; its object is the link itself, read by readlink
 * alone: what it points at may be outside the roots, or missing, and
 * nothing here follows it. */
#ifndef RG_JSYMLINK_H
#define RG_JSYMLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli/journal/store.h"

/* Does r keep a symbolic link? */
static inline bool rg_jrec_is_symlink(const struct rg_jrec *r)
{
    return r->object && S_ISLNK(r->mode);
}

/* The target of the symbolic link kept as object in journal dir, into out
 * (NUL-terminated), and its lstat in *st (may be NULL). Its length, or
 * -errno: -EINVAL when the object is no symbolic link. */
ssize_t rg_jsym_target(const char *dir, const char *object, char *out, size_t cap, struct stat *st);

/* Does the name abs hold a symbolic link to the target of object? */
bool rg_jsym_holds(const char *dir, const char *object, const char *abs);

/* Keeps the symbolic link name in directory at as session id's version
 * of abs, op op, before undo replaces it: a link to its inode in
 * objects/, or a new link to the same target where the journal is on
 * another file system. 0, with kept's st its state (st_mode 0: no link
 * there, nothing kept); -EAGAIN when it changed meanwhile; else -errno. */
int rg_jsym_keep_at(const char *dir, const char *id, int at, const char *name, const char *abs,
                    const char *op, struct rg_jkept *kept);

#endif
