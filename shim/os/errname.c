#include "os/errname.h"
#include <stddef.h>

#include "os/nextsym.h"

/* strerrorname_np, found on first use rather than linked: it is the one
 * function that would make the shim need the symbol version GLIBC_2.32, and
 * ld.so checks every version a library needs against libc's list when it
 * loads it, in every process (callgrind, /bin/true: about 500 instructions
 * for this one), while a name is only wanted when something failed. Found
 * without the loader's lock (os/nextsym.h): a message may be written in a
 * forked child or a signal handler. */
rg_errname_fn rg_errname_fn_;

const char *rg_errname(int err)
{
    rg_errname_fn f = __atomic_load_n(&rg_errname_fn_, __ATOMIC_RELAXED);
    if (!f) {
        f = (rg_errname_fn)rg_next_func("strerrorname_np");
        __atomic_store_n(&rg_errname_fn_, f, __ATOMIC_RELAXED);
    }
    return f && err ? f(err) : NULL;
}
