/* An errno's name ("ENOSPC"), for messages and log lines. */
#ifndef RG_ERRNAME_H
#define RG_ERRNAME_H

/* glibc 2.32's strerrorname_np(err), or NULL (unknown number, musl, or the
 * function cannot be found): callers then say less. Async-signal-safe. */
const char *rg_errname(int err);

/* strerrorname_np itself where it may be linked: the command sets it
 * (cli/main.c), whose start-up vector the walk never sees. NULL: found on
 * first use. */
typedef const char *(*rg_errname_fn)(int);
extern rg_errname_fn rg_errname_fn_;

#endif
