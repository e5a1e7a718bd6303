/* Restamps: when a session process lets go of a write descriptor (close,
 * dup2 over it, close_range, exec, exit), the bytes it wrote become what the
 * session knows the file to be, so its own writes never lock it out. */
#ifndef RG_RESTAMP_H
#define RG_RESTAMP_H

#include <stdint.h>
#include <sys/stat.h>

#include "guard/ctx.h"
/* The file st describes as one word: ctx's append_look. */
static inline uint64_t rg_append_look(const struct stat *st)
{
    uint64_t x = (uint64_t)st->st_mtim.tv_sec * 1000000000u + (uint64_t)st->st_mtim.tv_nsec;
    x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15u;
    x ^= (uint64_t)st->st_ctim.tv_sec * 1000000000u + (uint64_t)st->st_ctim.tv_nsec;
    x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9u;
    x ^= (uint64_t)st->st_size;
    return (x ^ (x >> 32)) * 0x94d049bb133111ebu;
}
/* fd is about to be closed. */
void rg_note_close(struct rg_ctx *c, int fd);
/* rg_note_close, then the close itself, as close(2) answers (-1 and errno
 * on failure; errno kept on success): the end of every allowed write, in
 * one frame. */
int rg_close_noted(struct rg_ctx *c, int fd);
/* newfd is about to become a copy of oldfd (dup2, dup3). */
void rg_note_dup(struct rg_ctx *c, int oldfd, int newfd);
/* Descriptors first to last are about to be closed. */
void rg_note_close_range(struct rg_ctx *c, int first, int last);
/* The first tracked descriptor that an exec now would close, or -1 when
 * there is none: lock-free and reentrant (slot reads and fcntl), so asked
 * outside the critical section. A shell that keeps a write on a descriptor
 * across its commands (configure's config.log on 5) tracks it in every
 * forked child, and most such children have nothing to restamp. */
int rg_exec_first_closed(struct rg_ctx *c);
/* Before exec: restamp descriptors that exec is about to close, from first
 * (rg_exec_first_closed's). Touches no process-local state a vfork parent
 * shares. */
void rg_note_exec(struct rg_ctx *c, int first);
/* A rename of the session's (counted as its act on e) gave the file of
 * dev and ino the name path: records it as what the session knew, was (its
 * record before the rename): the session's own write as rg_note_close
 * records one, or the read it was. */
void rg_restamp_renamed(struct rg_ctx *c, struct rg_entry *e, const struct rg_record *was,
                        int dirfd, const char *path, uint64_t dev, uint64_t ino);
/* The process is exiting: restamp everything it still holds. */
void rg_restamp_at_exit(struct rg_ctx *c);
/* What rg_note_close does for an untracked descriptor 0-2 open for writing
 * with status flags fl (its F_GETFL, which the caller asked already), on
 * table t: restamps the file it writes if the session knows it. Raw system
 * calls only (no lazy binding, errno untouched), so a process that never
 * set its context up can do it at exit (preload/stdfds.c). */
void rg_restamp_written(struct rg_table *t, int fd, int fl);

#endif
