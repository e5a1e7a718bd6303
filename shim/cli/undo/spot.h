/* Where undo restores a file: the directory the journal names, reached
 * from / without following a symbolic link and opened once, and the names
 * undo acts on in it. Every step (stage, keep, exchange, look, clean up)
 * is taken relative to that one descriptor, so a tree that swaps a
 * directory for a link, before undo or between two of its steps, cannot
 * lead any step into another directory: root's undo of a user's file
 * would otherwise write where that user points. */
#ifndef RG_JSPOT_H
#define RG_JSPOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rg_jspot {
    int dir;                   /* O_PATH on the file's directory; -1: none */
    const char *name;          /* the file's name in it (within abs) */
    char tmp[NAME_MAX + 32];   /* the staged version's name in it; "": none */
    char shown[PATH_MAX + 64]; /* tmp as a path, for messages */
    size_t bad;                /* on failure: abs's prefix that failed */
};

/* The owner and group to give the directories rg_jspot_open makes: the
 * restored file's, as the journal kept them (-1: not kept). A directory
 * that a session removed with the file was, most likely, its owner's (a
 * user's tree that root's agent cleaned up); one left root's would keep
 * that user out of it. Given where the maker may give them (root; a user
 * only a group it is in), else the maker's, as any directory it makes. */
struct rg_jspot_owner {
    int64_t uid, gid;
};

/* Opens the directory of abs, an absolute path, into s, making the
 * directories missing on the way, owned as make says, unless make is NULL.
 * 0, or -errno: -ELOOP when a directory on the way is a symbolic link;
 * -EINVAL for a path with an empty, "." or ".." name (no shim records
 * one). s->bad then says how much of abs names what failed. */
int rg_jspot_open(struct rg_jspot *s, const char *abs, const struct rg_jspot_owner *make);

/* Names s->tmp, the staged version's name beside the file, and opens it
 * new (never through a link), mode 0600, for writing. An fd, or -1
 * (errno). */
int rg_jspot_create_tmp(struct rg_jspot *s, const char *abs);

/* Names s->tmp as rg_jspot_create_tmp does, and makes it a symbolic link
 * to target (symlinkat refuses any name there). 0, or -1 (errno). */
int rg_jspot_symlink_tmp(struct rg_jspot *s, const char *abs, const char *target);

/* Opens s->tmp, which rg_jspot_symlink_tmp made a link to target at
 * since_ns (CLOCK_REALTIME_COARSE, read before), O_PATH: the link itself,
 * for undo to give it owner and times by the fd, never by name. Where the
 * directory is the tree's, the tree may have put another file in its
 * place meanwhile: a hard link to a file it can read and write, which
 * root's chown by name would give the record's owner. An fd, or -1:
 * errno ESTALE when what is there is not this process's own link to
 * target, with no other name, born at or after since_ns. */
int rg_jspot_open_link_tmp(const struct rg_jspot *s, const char *target, int64_t since_ns);

/* Removes s->tmp, if staged. */
void rg_jspot_drop_tmp(struct rg_jspot *s);

void rg_jspot_close(struct rg_jspot *s);

#endif
