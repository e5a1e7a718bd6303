#include "os/libcvar.h"
#include <dlfcn.h>
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

const char *rg_libc_progname(void)
{
    static void *at;
    const char **p = lookup(&at, "program_invocation_short_name");
    return p ? *p : "";
}
