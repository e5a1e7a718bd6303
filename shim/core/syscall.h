/* A guarded system call (core/syscalls.def) decoded from its number and
 * its six argument registers. The preload's syscall() hook and the
 * supervisor, which reads the registers from a seccomp notification, both
 * decode here, so each call's argument positions are written once. Pure. */
#ifndef RG_SYSCALL_H
#define RG_SYSCALL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "core/request.h"
/* Linux 6.6, the same number on every architecture; older headers lack it. */
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
/* Linux 6.13: setxattr and removexattr relative to a directory, with the
 * value in a struct in memory. The same numbers on every architecture. */
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif
/* Linux 6.15: open_tree with mount attributes (supervise/ns.c). */
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467
#endif
/* What an argument register of a guarded call holds. */
enum rg_sc_arg {
    RG_SC_NONE,     /* nothing: past the call's last argument */
    RG_SC_DIRFD,    /* the directory path is relative to */
    RG_SC_PATH,     /* the file written (a rename's destination) */
    RG_SC_FLAGS,    /* open(2) flags, or renameat2's, linkat's or unlinkat's flags */
    RG_SC_MODE,     /* the mode of a file created */
    RG_SC_OLDDIRFD, /* a rename's or link's source: its directory */
    RG_SC_OLDPATH,  /* and its path */
    RG_SC_HOW,      /* openat2's struct open_how, in memory */
    RG_SC_HOW_SIZE, /* and its size */
    RG_SC_LENGTH,   /* truncate's new length */
    RG_SC_OWNER,    /* chown's new owner */
    RG_SC_GROUP,    /* and group */
    RG_SC_TIMES,    /* utimensat's struct timespec[2], in memory (0: now) */
    RG_SC_XNAME,    /* an extended attribute's name, in memory */
    RG_SC_XVALUE,   /* setxattr's value, in memory */
    RG_SC_XSIZE,    /* and its size */
    RG_SC_XFLAGS,   /* setxattr's XATTR_CREATE or XATTR_REPLACE */
};

/* Addresses (path, oldpath, how) are the caller's: the preload reads them
 * in place, the supervisor from the trapped process. */
struct rg_syscall {
    long nr;
    const char *name;        /* "openat": the call, as the supervisor logs it */
    const char *via_syscall; /* "syscall(SYS_openat)", as the syscall() hook logs it */
    enum rg_op op;           /* RG_OP_OPEN, _RENAME, _LINK, _TRUNCATE, _UNLINK or _META */
    int dirfd;               /* AT_FDCWD when the call takes none */
    uint64_t path;
    int flags; /* open flags, implied ones included; rename or link flags */
    mode_t mode;
    int olddirfd; /* AT_FDCWD when the call takes none */
    uint64_t oldpath;
    bool flags_in_memory; /* openat2: flags, mode and resolve are at how */
    uint64_t how;
    uint64_t how_size;
    int64_t length;
    uint32_t owner, group; /* (uint32_t)-1: left as it is */
    uint64_t times;
    uint64_t xname, xvalue, xsize;
    int xflags;
};

/* Decodes call nr with argument registers args. False when nr is not a
 * guarded call. */
bool rg_syscall_decode(long nr, const uint64_t args[6], struct rg_syscall *out);

#endif
