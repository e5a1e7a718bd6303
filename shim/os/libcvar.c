#include "os/libcvar.h"
#include "core/hot.h"
#include "os/symver.h"
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>

/* The address of the variable called name, looked up once: RTLD_DEFAULT
 * finds the copy the program uses, its own when it has one (a copy
 * relocation), as ld.so would have for the shim. The cached address is the
 * same in every process that shares or copies this memory. */
static void *lookup(void **cache, const char *name)
{
    void *p = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (!p) {
        p = dlsym(RTLD_DEFAULT, name);
        __atomic_store_n(cache, p, __ATOMIC_RELAXED);
    }
    return p;
}

/* Linked, not looked up: the exec forms without an envp read it, and they
 * run where dlsym must not, as it takes the loader's lock: in a child made
 * by _Fork while another thread held it (no fork handler resets it there,
 * so the exec waited forever), in a signal handler, in a vfork child. */
char **rg_libc_environ(void) { return environ; }

/* argv[0] as glibc passes it to the constructor, which needs no lookup:
 * the name is read on an exec's path too (a notice of an unguarded
 * program), where dlsym must not run (rg_libc_environ). Process-wide: a
 * fact of the image, handed once, before any context exists. */
static const char *start_argv0;
static bool argv0_noted;

RG_START_TEXT void rg_libc_note_argv0(const char *argv0)
{
    start_argv0 = argv0;
    argv0_noted = true;
}

/* As glibc derives program_invocation_short_name from argv[0] at start. */
static const char *short_name(const char *name)
{
    const char *s = name;
    for (const char *p = name; *p; p++)
        if (*p == '/')
            s = p + 1;
    return s;
}

const char *rg_libc_progname(void)
{
    if (argv0_noted)
        return start_argv0 ? short_name(start_argv0) : "";
    static void *at;
    const char **p = lookup(&at, "program_invocation_short_name");
    return p ? *p : "";
}
