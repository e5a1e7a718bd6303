/* The shim's critical section: where a thread works on the shim's own state.
 *
 * A signal handler may call open() at any instruction (open is
 * async-signal-safe), and the shim's state is not reentrant everywhere (lazy
 * start-up, the large-descriptor map, malloc in a slow path). So while a
 * thread is inside, asynchronous signals wait (they are blocked; faults are
 * not), and a handler only ever runs with the thread outside, where its hook
 * is guarded like any other call. A hook entered while its thread is already
 * inside is the shim calling itself (dlsym -> malloc -> open under an
 * allocator that opens files) and passes straight through.
 *
 * A call that can block for as long as another process likes (an open of a
 * FIFO or a tty, a flush into a pipe) runs paused: the thread is outside, with
 * the program's own signal mask, so EINTR and Ctrl-C work as without the shim.
 *
 * The supervisor links this too; its threads never enter, so pausing there
 * does nothing. */
#ifndef RG_CRITICAL_H
#define RG_CRITICAL_H

#include <signal.h>
#include <stdbool.h>

/* Enters; false if the thread is already inside. */
bool rg_crit_enter(void);
void rg_crit_leave(void);
/* Is the thread inside? */
bool rg_crit_inside(void);

struct rg_crit_pause {
    bool active;
    sigset_t mask;
};
void rg_crit_pause(struct rg_crit_pause *p);
void rg_crit_resume(struct rg_crit_pause *p);

/* Runs EXPR outside the critical section, with the program's signal mask. */
#define RG_PAUSED(expr)               \
    ({                                \
        struct rg_crit_pause p_;      \
        rg_crit_pause(&p_);           \
        __typeof__(expr) r_ = (expr); \
        rg_crit_resume(&p_);          \
        r_;                           \
    })

#endif
