/* Forced into every file of the musl build of the shim (make musl).
 *
 * With _GNU_SOURCE, musl's headers turn the LFS64 names into macros
 * ("#define open64 open"), so the hooks for them would define open twice.
 * musl's libc.so still exports open64 and the rest, for programs linked
 * against older musl; the hooks stay real functions under those names. */
#ifndef RG_MUSL_COMPAT_H
#define RG_MUSL_COMPAT_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#undef open64
#undef openat64
#undef creat64
#undef truncate64
#undef ftruncate64
#undef fopen64
#undef freopen64
#undef mkstemp64
#undef mkostemp64
#undef mkstemps64
#undef mkostemps64
#undef tmpfile64

int open64(const char *path, int flags, ...);
int openat64(int dirfd, const char *path, int flags, ...);
int creat64(const char *path, mode_t mode);
int truncate64(const char *path, off_t length);
int ftruncate64(int fd, off_t length);
FILE *fopen64(const char *path, const char *mode);
FILE *freopen64(const char *path, const char *mode, FILE *stream);
int mkstemp64(char *tmpl);
int mkostemp64(char *tmpl, int flags);
int mkstemps64(char *tmpl, int suffixlen);
int mkostemps64(char *tmpl, int suffixlen, int flags);

/* musl 1.2.3 does not pass Linux's close_range flags on. */
#include <linux/close_range.h>

/* glibc 2.28's renameat2; musl has it from 1.2.5 only. The shim defines
 * it (a hook); the command gets shim/musl/renameat2.c. */
#include <linux/fs.h>
int renameat2(int olddir, const char *oldpath, int newdir, const char *newpath, unsigned flags);

/* glibc 2.32's errno names; musl has none, and the callers say less. */
static inline const char *strerrorname_np(int err)
{
    (void)err;
    return NULL;
}

#endif
