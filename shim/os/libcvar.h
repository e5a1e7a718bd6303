/* The C library's variables that the shim reads only on rare paths. The
 * program's name is taken from main()'s argv on glibc, and looked up where
 * it is read on musl, rather than linked: ld.so looks up every variable a
 * library refers to when it loads it, in every process (about 630
 * instructions each), while a lookup here costs about 1,250 once per
 * process that needs it (a refusal's message). environ is linked: the
 * exec forms that read it must not take the loader's lock (libcvar.c). */
#ifndef RG_LIBCVAR_H
#define RG_LIBCVAR_H

/* environ as it is now, which setenv and putenv may have replaced since
 * main() started. Async-signal-safe: a vfork or _Fork child, or a signal
 * handler, may call it. */
char **rg_libc_environ(void);

/* Notes main()'s argv[0], which glibc passes to constructors: the
 * program's name is then taken from it, as glibc takes it, with no lookup. */
void rg_libc_note_argv0(const char *argv0);

/* program_invocation_short_name: the name a message gives the process. */
const char *rg_libc_progname(void);

#endif
