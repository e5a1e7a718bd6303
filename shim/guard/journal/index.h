/* A version being kept, and the session's index of them: what the journal
 * writes for each file it keeps (core/jrecord.h), and what it says when it
 * cannot keep one. Used by guard/journal/keep.c and the two ways it keeps bytes,
 * guard/journal/copy.c and guard/journal/link.c. */
#ifndef RG_JINDEX_H
#define RG_JINDEX_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "core/jrecord.h"
#include "core/request.h"
#include "guard/ctx.h"
struct rg_jkeep {
    struct rg_ctx *c;
    const struct rg_request *req;
    const char *op;
    const struct stat *st; /* the file as it was judged */
    char abs[PATH_MAX];
    const char *objects; /* the journal's objects/ (guard/journal/paths.h) */
    const char *index;   /* the session's index there */
    char objects_buf[RG_JPATH], index_buf[RG_JPATH]; /* they, when not cached */
    char object[RG_JOURNAL_OBJECT_MAX];              /* its name there, once kept */
    bool unreadable; /* a symbolic link's target could not be read */
};

/* Makes dir and the directories above it, mode 0700: the journal's
 * objects/ is made by the first version kept in it. 0, or -errno. */
int rg_jdir_make(const char *dir);

/* Moves what is at path, a name the journal is about to use, aside under
 * a dot name no record names (".aside-PID-NAME" beside it): a symbolic
 * link, a directory or a FIFO a tree put there would otherwise stand in
 * for the journal's own file. 0, or -errno. */
int rg_jset_aside(const char *path);

/* Appends the record of k's kept version (k->object) to the session's
 * index. 0, or -errno. */
int rg_jindex_append(const struct rg_jkeep *k);

/* Records that k's bytes were not kept, and why (err: an errno, or 0), in
 * the index and the session log, and once per process on stderr: the
 * change itself goes ahead. */
void rg_jindex_unsaved(const struct rg_jkeep *k, const char *why, int err);

#endif
