#include "context.h"

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "log.h"
#include "session.h"
#include "sys.h"
#include "text.h"

enum { UNINIT, INITING, READY };

static struct rg_ctx ctx;

/* initial-exec: the flag must not make glibc allocate TLS lazily, which could
 * call malloc from inside a hook. */
static __thread int in_shim __attribute__((tls_model("initial-exec")));

static void add_root(struct rg_ctx *c, const char *root)
{
    if (c->nroots < RG_MAX_ROOTS)
        c->roots[c->nroots++] = root;
}

/* Roots for a process that must fail closed without a table: READGUARD_ROOTS
 * if set, else the working directory, so writes there are still refused. */
static void fallback_roots(struct rg_ctx *c)
{
    const char *env = getenv(RG_ENV_ROOTS);
    char cwd[PATH_MAX];
    if (!env || !*env)
        env = getcwd(cwd, sizeof cwd) ? cwd : "/";
    size_t o = 0;
    for (const char *p = env; *p && o < sizeof c->fallback_roots;) {
        const char *e = strchrnul(p, ':');
        char one[PATH_MAX], abs[PATH_MAX];
        size_t n = (size_t)(e - p);
        if (n > 0 && n < sizeof one) {
            memcpy(one, p, n);
            one[n] = '\0';
            if (!realpath(one, abs) && !rg_path_join(abs, sizeof abs, cwd, one))
                abs[0] = '\0';
            size_t len = strlen(abs) + 1;
            if (len > 1 && o + len <= sizeof c->fallback_roots) {
                memcpy(c->fallback_roots + o, abs, len);
                add_root(c, c->fallback_roots + o);
                o += len;
            }
        }
        p = *e ? e + 1 : e;
    }
}

static void fail_closed(struct rg_ctx *c, const char *why)
{
    c->table_state = RG_TABLE_BROKEN;
    c->problem = why;
    c->mode = RG_MODE_ENFORCE;
    fallback_roots(c);
}

static void use_table(struct rg_ctx *c)
{
    rg_ctx_use_table(c);
}

/* A process preloaded without a session starts one, and exports it so its
 * children join. Settings come from the environment. */
static void start_session(struct rg_ctx *c)
{
    struct rg_settings s = {.mode = RG_MODE_ENFORCE, .capacity = RG_DEFAULT_CAPACITY,
                            .log_path = getenv(RG_ENV_LOG)};
    const char *mode = getenv(RG_ENV_MODE), *cap = getenv(RG_ENV_CAPACITY);
    if (mode && *mode && rg_mode_parse(mode) < 0) {
        fail_closed(c, "READGUARD_MODE is neither 'enforce' nor 'warn'");
        return;
    }
    if (mode && *mode)
        s.mode = (enum rg_mode)rg_mode_parse(mode);
    if (cap && *cap && !(s.capacity = rg_capacity_parse(cap))) {
        fail_closed(c, "READGUARD_CAPACITY is not a number of files in range");
        return;
    }
    if (s.log_path && !*s.log_path)
        s.log_path = NULL;
    fallback_roots(c);
    s.roots = c->roots;
    s.nroots = c->nroots;
    char err[256], rules[RG_IGNORES_MAX];
    struct rg_ignore_list ign = {rules, sizeof rules, 0, 0};
    if (rg_session_ignores(&ign, &s, NULL, 0, err, sizeof err) < 0) {
        c->nroots = 0;
        fail_closed(c, "the .readguardignore files cannot be used");
        return;
    }
    s.ignores = ign.buf;
    s.ignores_len = ign.len;
    s.nignores = ign.count;
    if (rg_session_create(&s, c->session_path, sizeof c->session_path, err, sizeof err) < 0) {
        c->nroots = 0;
        fail_closed(c, "no session table could be created");
        return;
    }
    c->nroots = 0;
    const char *why = rg_session_attach(c->session_path, &c->table);
    if (why) {
        fail_closed(c, why);
        return;
    }
    use_table(c);
    c->owner_pid = (int32_t)getpid();
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)c->owner_pid);
    setenv(RG_ENV_SESSION, c->session_path, 1);
    setenv(RG_ENV_OWNER, pid, 1);
}

/* The creator of a session may exec (a shell runs its last command that
 * way); the pid survives exec, so the new image still owns the session. */
static int32_t owner_from_env(void)
{
    /* Exactly our pid: "123x" owns nothing, and an overflow saturates to a
     * value no pid has. */
    const char *s = getenv(RG_ENV_OWNER);
    char *end;
    if (!s || !*s)
        return 0;
    long pid = strtol(s, &end, 10);
    return !*end && pid == (long)getpid() ? (int32_t)pid : 0;
}

static void init(struct rg_ctx *c)
{
    const char *path = getenv(RG_ENV_SESSION);
    if (!path || !*path) {
        start_session(c);
        return;
    }
    snprintf(c->session_path, sizeof c->session_path, "%s", path);
    const char *why = rg_session_attach(path, &c->table);
    if (why) {
        fail_closed(c, why);
        return;
    }
    use_table(c);
    c->owner_pid = owner_from_env();
}

struct rg_ctx *rg_enter(void)
{
    if (in_shim)
        return NULL;
    in_shim = 1;
    int st = atomic_load_explicit(&ctx.state, memory_order_acquire);
    if (st == READY)
        return &ctx;
    if (st == UNINIT && atomic_compare_exchange_strong(&ctx.state, &st, INITING)) {
        init(&ctx);
        atomic_store_explicit(&ctx.state, READY, memory_order_release);
        return &ctx;
    }
    /* Another thread is initialising; it does not wait on us, so wait. */
    while (atomic_load_explicit(&ctx.state, memory_order_acquire) != READY)
        sched_yield();
    return &ctx;
}

void rg_leave(void)
{
    in_shim = 0;
}

/* A new session must exist before main() runs: shells copy the environment
 * into their own variables at start-up and export those to their children,
 * not environ, so a READGUARD_SESSION set later would never reach them.
 * Joining an existing session stays lazy (the first hook attaches). */
__attribute__((constructor)) static void rg_start(void)
{
    rg_trampoline_map();
    const char *s = getenv(RG_ENV_SESSION);
    if (s && *s)
        return;
    int saved = errno;
    if (rg_enter())
        rg_leave();
    errno = saved;
}

/* Is one of descriptors 0-2 a regular file open for writing? Such a process
 * (`seq 10 > f`) writes the session's file without a single hooked call. */
static bool writes_inherited_stdio(void)
{
    struct stat st;
    for (int fd = 0; fd <= 2; fd++) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && fstat(fd, &st) == 0 &&
            S_ISREG(st.st_mode))
            return true;
    }
    return false;
}

/* At exit: restamp what this process wrote, and remove the session if this
 * process created it (only the creator itself, not its forked children). A
 * process that never entered the shim is only attached now if it has
 * something to do: most (`true`, `test`) have nothing. */
__attribute__((destructor)) static void rg_exit(void)
{
    int saved = errno;
    if (atomic_load_explicit(&ctx.state, memory_order_acquire) != READY &&
        !owner_from_env() && !writes_inherited_stdio()) {
        errno = saved;
        return;
    }
    struct rg_ctx *c = rg_enter();
    if (!c)
        return;
    rg_restamp_at_exit(c);
    if (c->owner_pid && c->owner_pid == (int32_t)getpid() && c->session_path[0])
        rg_sys_unlinkat(AT_FDCWD, c->session_path, 0);
    rg_leave();
    errno = saved;
}
