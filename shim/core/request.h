/* What a hooked call asks for, decoded from its arguments. Every hook turns
 * its arguments into one struct rg_request; nothing downstream looks at the
 * original call. The decoders here are pure, so they are unit-tested. */
#ifndef RG_REQUEST_H
#define RG_REQUEST_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum rg_op {
    RG_OP_OPEN,       /* open, openat, creat, fopen, syscall(SYS_open*) ... */
    RG_OP_RENAME,     /* the destination of rename*, renameat2 */
    RG_OP_TRUNCATE,   /* truncate */
    RG_OP_SPAWN_OPEN, /* posix_spawn_file_actions_addopen: opened later by a child */
    RG_OP_UNLINK,     /* unlink, unlinkat, remove: checked only with --guard-unlink */
    RG_OP_LINK,       /* a new name for a file (link, linkat, a rename's source): path
                         names the file, to_path the new name */
    RG_OP_META,       /* chmod, chown, utimensat: never refused, but the session's own
                         keep a file it knew known (guard/meta.h) */
    RG_OP_XATTR,      /* setxattr, removexattr: never refused by the rule; trapped
                         only so that --strict seals the journal against an ACL */
};

struct rg_request {
    enum rg_op op;
    const char *call; /* the entry point, for the log: "openat", "fopen" ... */
    int dirfd;
    const char *path;
    int flags; /* open(2) flags; for fopen, the decoded mode */
    mode_t mode;
    uint64_t resolve; /* openat2 RESOLVE_* flags, 0 otherwise */
    int to_dirfd;     /* RG_OP_LINK: the new name, relative to to_dirfd */
    const char *to_path;
    const char *shown; /* the name the program gave, when path is only its last
                          component (guard/anchor.h); NULL: path itself */
};

/* Inline: every open asks both, and they are a few instructions each. */
static inline bool rg_flags_write(int flags)
{
    if (flags & O_PATH)
        return false;
    return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
}

/* touch(1)'s open: O_WRONLY|O_CREAT|O_NONBLOCK|O_NOCTTY (it reopens its
 * standard input, so never a terminal of its own), no O_TRUNC or O_APPEND,
 * only to set the times through the descriptor. truncate(1), coreutils' and
 * busybox's, asks the same without O_NOCTTY and then ftruncates. */
static inline bool rg_flags_touch(int flags)
{
    return (flags & (O_ACCMODE | O_CREAT | O_NONBLOCK | O_NOCTTY | O_TRUNC | O_APPEND)) ==
           (O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY);
}

/* The open flags that may create a file: O_CREAT, and O_TMPFILE's own bit.
 * O_TMPFILE includes O_DIRECTORY, so testing O_TMPFILE whole would take
 * every directory open (a tree walk's) for one that creates. */
#define RG_O_CREATES (O_CREAT | (O_TMPFILE & ~O_DIRECTORY))

static inline bool rg_flags_need_mode(int flags)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

/* Decodes an fopen/freopen mode as glibc does. Returns false for a mode
 * glibc rejects (EINVAL). */
bool rg_fopen_flags(const char *mode, int *flags);

/* The destinations a rename writes: 0, 1 (new) or 2 (new and old). */
int rg_rename_targets(unsigned flags);
/* Would renameat2 take flags? The kernel answers EINVAL before it looks at
 * either name, and so must a rename that resolves its names first; a flag
 * it does not know is refused too, as nothing here could judge it. */
bool rg_rename_flags_valid(unsigned flags);

const char *rg_op_name(enum rg_op op);

/* Is name base's backup name: base followed by "~", ".bak", ".orig" or
 * ".old", as sed -i.bak, perl -pi.orig, patch -b and Emacs rotate them? */
bool rg_backup_name(const char *base, const char *name);

/* The length of the name whose backup name is name (name less its "~",
 * ".bak", ".orig" or ".old"), or 0 when name is none. */
size_t rg_backup_base_len(const char *name);

#endif
