/* The program an exec is about to start, looked at before the call: which
 * libc's loader maps it (progkind.h), so that the exec hands it the shim it
 * can load, or none. Shared by the shim's exec hooks and by readguard run's
 * own first exec.
 *
 * The common case costs one fstatat: verdicts are cached per process, keyed
 * by (dev, ino, mtime, ctime, size), in a table that a process's forked
 * children share with it (rg_exec_cache_share), so a shell that runs the same
 * program 500 times reads its headers once. The table is its owner's (the
 * shim's per-process context), passed in. No allocation, no locks, no libc
 * state: the hooks run this in vfork children. */
#ifndef RG_EXEC_TARGET_H
#define RG_EXEC_TARGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/progkind.h"
/* Set by readguard run for a supervised session: no notice is needed. */
#define RG_ENV_SUPERVISED "READGUARD_SUPERVISED"

#define RG_EXEC_SLOTS 256u
struct rg_exec_slots {
    _Atomic uint64_t gen; /* counts the puts into the shared slots */
    _Atomic uint64_t slot[RG_EXEC_SLOTS];
};
/* A process's cache: the shared slots, mapped at its first fork, and its
 * own copy of them, which is the cache until then. A forked child reads the
 * copy first: it has its parent's page tables for it (private memory the
 * parent wrote), where its first read of the shared mapping, whose page
 * tables a fork does not copy, is a page fault in every child that execs.
 * Zeroes: empty. */
struct rg_exec_cache {
    struct rg_exec_slots local;
    struct rg_exec_slots *_Atomic shared;
};

struct rg_target {
    enum rg_prog kind; /* a script is reported as its interpreter's kind */
    bool native;       /* same ELF class and machine as this build */
    uint64_t dev, ino; /* of the file exec'd (0, 0 when it could not be looked at) */
};

/* Looks at dirfd/path as execveat(dirfd, path, ..., at_flags) would run it
 * (path "" with AT_EMPTY_PATH: dirfd itself), asking the cache x first and
 * keeping the verdict there (x NULL: no cache). Never fails: a program that
 * cannot be looked at is RG_PROG_UNKNOWN, and is handed what it always was. */
void rg_exec_target(struct rg_exec_cache *x, int dirfd, const char *path, int at_flags,
                    struct rg_target *t);

/* Resolves FILE on PATH as execvp would (the first executable regular file),
 * into out. Returns false when there is no such file. */
bool rg_exec_search(const char *file, char *out, unsigned long cap);

/* Makes x shared with the children the process is about to fork (called
 * in the parent, before fork). Idempotent. */
void rg_exec_cache_share(struct rg_exec_cache *x);

#endif
