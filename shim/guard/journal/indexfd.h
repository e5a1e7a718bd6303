/* The session index's descriptor, kept open by each process from its first
 * kept version on (guard/journal/index.c). Opening the index by its path
 * and closing it again were two of the system calls git checkout paid per
 * file it replaces, and the open walked the journal's whole path; a look
 * at the kept descriptor (one fstat) is all a later record needs.
 *
 * The descriptor is the program's as much as ours: it may close it, or
 * dup2 another file over its number, by a libc call or a raw one (Go's
 * runtime, a closefrom before an exec). So each use first checks that the
 * number still names the index's inode, still linked (a prune, or a
 * replacement, unlinks it), and otherwise leaves the number alone (it is
 * the program's now) and opens the index again. A record is written whole
 * before the change it keeps goes ahead, as before: nothing is buffered.
 * The descriptor is close-on-exec and lives at RG_JINDEXFD_LOW or above
 * (above 2 where the limit on descriptors is lower): never one of 0-2,
 * which a program that closed them expects its next opens to get, and out
 * of reach of a program's next opens, which take the lowest free number.
 * That matters for what the check cannot see: another thread (or a task
 * sharing the descriptor table) closing the number and opening a file on
 * it between the check and the write. No system call writes "only if this
 * descriptor is still that inode"; at 512 and above, that needs a program
 * that closes a descriptor it never opened and then has hundreds open, or
 * dup2s onto that very number, in the instant between the two. */
#ifndef RG_JINDEXFD_H
#define RG_JINDEXFD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define RG_JINDEXFD_LOW 512

struct rg_jindexfd {
    _Atomic int fd1; /* the descriptor + 1; 0: none (a fresh context is zeroed) */
    _Atomic uint64_t dev, ino;
};

/* The kept descriptor, if it still names the index (strict: with no other
 * name, as rg_log_open_in opens it under --strict), else -1; *seen: the
 * slot as read, for rg_jindexfd_keep. */
int rg_jindexfd_get(struct rg_jindexfd *k, bool strict, int *seen);

/* Keeps fd, just opened on the index, unless another thread kept one since
 * the slot read seen: returns the descriptor to write to (fd, or a copy of
 * it above 2), and *kept says whether it stays open; if not, the caller
 * closes it after the write. */
int rg_jindexfd_keep(struct rg_jindexfd *k, int fd, int seen, bool *kept);

/* Forgets the descriptor, closing it if it is still ours: another table is
 * attached. */
void rg_jindexfd_reset(struct rg_jindexfd *k);

#endif
