/* fork: registers the shim's fork handlers (preload/context.c) before the
 * first fork of a process that never entered the shim, a shell that only
 * forks and execs for example. Registering them in every process before
 * main() cost each a pthread_atfork call and the pages behind it; a process
 * that sets the context up registers them itself, before anything they
 * protect exists. Through them the forking process shares what its
 * children learn about the programs they exec (os/exec_target.h).
 *
 * A fork glibc makes inside itself (daemon, forkpty) does not come here; the
 * handlers still run in it once registered, and before that there is
 * nothing they would protect but that cache, which only costs a child a
 * look at its program.
 *
 * Once they are registered, a fork enters no critical section: two
 * system calls fewer for each command a shell runs. */
#include <unistd.h>

#include "preload/hook.h"
#define HOOK_FORK(sym)                                    \
    RG_EXPORT pid_t sym(void)                             \
    {                                                     \
        int saved = errno;                                \
        if (!rg_fork_handlers_set() && rg_crit_enter()) { \
            rg_fork_handlers();                           \
            rg_crit_leave();                              \
        }                                                 \
        __typeof__(&(sym)) real = RG_REAL(sym);           \
        errno = saved;                                    \
        return real ? real() : (errno = ENOSYS, -1);      \
    }

#undef RG_HOOKS_fork
#define RG_HOOKS_fork(shape, symbol) HOOK_##shape(symbol)
#include "preload/hooks.def"
