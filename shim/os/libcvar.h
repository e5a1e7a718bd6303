/* The C library's variables that the shim reads only on rare paths, looked
 * up there rather than linked: ld.so looks up every variable a library
 * refers to when it loads it, in every process (about 630 instructions
 * each), while a lookup here costs about 1,250 once per process that needs
 * it (an exec with no envp argument, system(), a refusal's message). */
#ifndef RG_LIBCVAR_H
#define RG_LIBCVAR_H

/* environ as it is now, which setenv and putenv may have replaced since
 * main() started. Async-signal-safe as dlsym is once bound: a vfork child
 * may call it, and the address it caches is the parent's too. */
char **rg_libc_environ(void);

/* program_invocation_short_name: the name a message gives the process. */
const char *rg_libc_progname(void);

#endif
