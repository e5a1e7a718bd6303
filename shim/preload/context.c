#include "preload/context.h"
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/envp.h"
#include "core/settings.h"
#include "core/text.h"
#include "guard/critical.h"
#include "guard/restamp.h"
#include "guard/unguarded.h"
#include "os/exec_target.h"
#include "os/session.h"
#include "os/sys.h"
/* Which build of the shim this is: the loader of the process it lives in. */
#ifdef __GLIBC__
#define OWN_LIBC RG_LIBC_GLIBC
#else
#define OWN_LIBC RG_LIBC_MUSL
#endif

#define SHIM_FILE "libreadguard.so"

enum { UNINIT, INITING, READY };

/* The one instance: the guard's context, and what only this process's own
 * lifecycle needs around it. */
static struct {
    _Atomic int state; /* UNINIT, INITING, READY */
    /* Held by the thread that sets the context up, and by a thread that
     * forks (pthread_atfork below): a child must never be born with the
     * context half set up, as a state INITING no thread of the child will
     * ever finish. */
    _Atomic int init_lock;
    struct rg_ctx ctx;
    int32_t owner_pid;               /* set when this process created the session */
    char fallback_roots[PATH_MAX];   /* roots when there is no table */
    char problem[320];               /* room for a problem worded at run time */
    char env_session[PATH_MAX + 32]; /* READGUARD_SESSION=..., see export_var() */
    char env_owner[48];
    /* What execs re-inject (rg_exec_need). Written before main() runs, or
     * by the thread that creates the session, and only read after that. */
    struct {
        char preload[PATH_MAX]; /* this build's entry */
        char other[PATH_MAX];   /* the other libc's build, when LD_PRELOAD names it */
        char session[PATH_MAX];
    } exec_env;
} self;

static void lock(_Atomic int *l)
{
    while (atomic_exchange_explicit(l, 1, memory_order_acquire))
        sched_yield();
}

static void unlock(_Atomic int *l) { atomic_store_explicit(l, 0, memory_order_release); }

/* Roots from READGUARD_ROOTS, or the working directory when it is unset or
 * empty. NULL, or why the variable cannot be used: a list that is cut short
 * or names nothing would leave directories unguarded that the user meant. */
static const char *env_roots(struct rg_ctx *c)
{
    const char *env = getenv(RG_ENV_ROOTS);
    char cwd[PATH_MAX], one[PATH_MAX], abs[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "/");
    if (!env || !*env)
        env = cwd;
    c->nroots = 0;
    size_t o = 0;
    for (const char *p = env; *p;) {
        const char *e = strchrnul(p, ':');
        size_t n = (size_t)(e - p);
        if (n >= sizeof one)
            return "READGUARD_ROOTS names a directory longer than PATH_MAX";
        if (n > 0) {
            memcpy(one, p, n);
            one[n] = '\0';
            /* A root that does not exist yet is taken as written. */
            if (!realpath(one, abs) && !rg_path_join(abs, sizeof abs, cwd, one))
                return "READGUARD_ROOTS names a directory longer than PATH_MAX";
            size_t len = strlen(abs) + 1;
            if (c->nroots == RG_MAX_ROOTS || o + len > sizeof self.fallback_roots)
                return "READGUARD_ROOTS names more directories than fit (64, 4096 bytes)";
            memcpy(self.fallback_roots + o, abs, len);
            rg_ctx_add_root(c, self.fallback_roots + o);
            o += len;
        }
        p = *e ? e + 1 : e;
    }
    return c->nroots ? NULL : "READGUARD_ROOTS names no directory";
}

/* A process without a usable table refuses writes under its roots; when
 * even those are unknown, everything is under the one root "/". */
static void fail_closed(struct rg_ctx *c, const char *why)
{
    c->table_state = RG_TABLE_BROKEN;
    c->problem = why;
    c->mode = RG_MODE_ENFORCE;
    if (env_roots(c)) {
        c->nroots = 0;
        rg_ctx_add_root(c, "/");
    }
}

static void use_table(struct rg_ctx *c) { rg_ctx_use_table(c); }

/* Exports name=value. A shell's own setenv (bash has one) binds a shell
 * variable that its start-up import of main()'s envp then overwrites when
 * the name is already there, empty (READGUARD_SESSION=): so an existing
 * entry is also replaced in place, in the array main() receives. */
static void export_var(char *entry, size_t cap, const char *name, const char *value)
{
    size_t n = strlen(name);
    snprintf(entry, cap, "%s=%s", name, value);
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            *e = entry;
    setenv(name, value, 1);
}

/* A process preloaded without a session starts one, and exports it so its
 * children join. Settings come from the environment. */
static void start_session(struct rg_ctx *c)
{
    struct rg_settings s = {.mode = RG_MODE_ENFORCE,
                            .capacity = RG_DEFAULT_CAPACITY,
                            .log_path = getenv(RG_ENV_LOG),
                            .scan_files = RG_DEFAULT_SCAN_FILES,
                            .scan_window_ns = RG_DEFAULT_SCAN_WINDOW_NS};
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
    char log[RG_LOG_PATH_MAX], cwd[PATH_MAX];
    if (s.log_path && !*s.log_path)
        s.log_path = NULL;
    /* Every process of the session opens the log from its own directory. */
    if (s.log_path &&
        (!getcwd(cwd, sizeof cwd) || !rg_path_join(log, sizeof log, cwd, s.log_path))) {
        fail_closed(c, "READGUARD_LOG is not a usable path (too long?)");
        return;
    }
    if (s.log_path)
        s.log_path = log;
    const char *bad_roots = env_roots(c);
    if (bad_roots) {
        fail_closed(c, bad_roots);
        return;
    }
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
        snprintf(self.problem, sizeof self.problem, "no session table could be created: %s", err);
        fail_closed(c, self.problem);
        return;
    }
    c->nroots = 0;
    const char *why = rg_session_attach(c->session_path, &c->table);
    if (why) {
        fail_closed(c, why);
        return;
    }
    use_table(c);
    self.owner_pid = (int32_t)getpid();
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)self.owner_pid);
    snprintf(self.exec_env.session, sizeof self.exec_env.session, "%s", c->session_path);
    export_var(self.env_session, sizeof self.env_session, RG_ENV_SESSION, c->session_path);
    export_var(self.env_owner, sizeof self.env_owner, RG_ENV_OWNER, pid);
    /* Node's libuv would open files through io_uring, unseen by the shim.
     * Only here: the environment of a process that joins is left alone
     * before main() (bash's own setenv would lose the rest of it). */
    setenv("UV_USE_IO_URING", "0", 1);
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
    self.owner_pid = owner_from_env();
}

struct rg_ctx *rg_enter(void)
{
    if (!rg_crit_enter())
        return NULL;
    if (atomic_load_explicit(&self.state, memory_order_acquire) == READY)
        return &self.ctx;
    /* Signals are blocked, so the holder is another thread, which does not
     * wait on us. */
    lock(&self.init_lock);
    if (atomic_load_explicit(&self.state, memory_order_relaxed) != READY) {
        atomic_store_explicit(&self.state, INITING, memory_order_relaxed);
        init(&self.ctx);
        atomic_store_explicit(&self.state, READY, memory_order_release);
    }
    unlock(&self.init_lock);
    return &self.ctx;
}

void rg_leave(void) { rg_crit_leave(); }

bool rg_fd_idle(int fd)
{
    if (fd < 0)
        return true;
    if (fd <= 2 || fd >= RG_FDMAP_SIZE)
        return false;
    return atomic_load_explicit(&self.ctx.fds[fd].ino, memory_order_relaxed) == 0;
}

/* fork() runs these; the forking thread takes every lock of the context, so
 * the child gets each one free and the state behind it whole. _Fork() runs
 * none: see the README (Hardening). Order: init, then the descriptor map, as
 * no holder of the map lock ever waits for init. */
static void before_fork(void)
{
    rg_exec_cache_share();
    lock(&self.init_lock);
    lock(&self.ctx.overflow_lock);
}

static void after_fork(void)
{
    unlock(&self.ctx.overflow_lock);
    unlock(&self.init_lock);
}

static void after_fork_child(void)
{
    rg_scan_forget(&self.ctx.scan);
    after_fork();
}

struct rg_ctx *rg_ready(void)
{
    return atomic_load_explicit(&self.state, memory_order_acquire) == READY ? &self.ctx : NULL;
}

struct rg_ctx *rg_enter_ready(void)
{
    if (atomic_load_explicit(&self.state, memory_order_acquire) != READY || !rg_crit_enter())
        return NULL;
    return &self.ctx;
}

void rg_exec_need(struct rg_env_need *need)
{
    struct stat st;
    need->preload = self.exec_env.preload[0] ? self.exec_env.preload : NULL;
    need->session = self.exec_env.session[0] ? self.exec_env.session : NULL;
    need->loader = OWN_LIBC;
    if (need->session && stat(need->session, &st) != 0)
        need->preload = need->session = NULL;
}

#ifndef RG_MULTIARCH
#define RG_MULTIARCH ""
#endif

/* The other libc's build, as an entry into out: glibc's is the one above
 * musl/, musl's is in musl/ beside glibc's. An installed glibc entry names
 * $LIB (readguard run writes it for lib/<multiarch>/), which musl's loader
 * cannot expand: it is expanded here the same way. NULL when the file is
 * not there. Called only for a program of the other libc: the common exec
 * pays nothing for it. */
static const char *other_build(char *out, size_t cap)
{
    static const char lib[] = "$LIB/", multi[] = "lib/" RG_MULTIARCH "/", tail[] = "/" SHIM_FILE,
                      musl_tail[] = "/musl/" SHIM_FILE;
    const char *own = self.exec_env.preload;
    size_t n = strlen(own), o = 0;
    if (OWN_LIBC == RG_LIBC_MUSL) {
        size_t t = sizeof musl_tail - 1;
        if (n < t || strcmp(own + n - t, musl_tail) != 0 || n - t + sizeof tail > cap)
            return NULL;
        memcpy(out, own, n - t);
        memcpy(out + n - t, tail, sizeof tail);
        return out; /* glibc's loader says what it cannot open */
    }
    size_t t = sizeof tail - 1;
    if (n < t || n + sizeof multi + sizeof musl_tail > cap)
        return NULL;
    for (size_t i = 0; i < n - t;) {
        if (RG_MULTIARCH[0] && strncmp(own + i, lib, sizeof lib - 1) == 0) {
            memcpy(out + o, multi, sizeof multi - 1);
            o += sizeof multi - 1;
            i += sizeof lib - 1;
        } else {
            out[o++] = own[i++];
        }
    }
    memcpy(out + o, musl_tail, sizeof musl_tail);
    return rg_syscall6(SYS_faccessat, AT_FDCWD, (long)out, R_OK, 0, 0, 0) == 0 ? out : NULL;
}

void rg_exec_prepare(const char *call, int dirfd, const char *path, int at_flags,
                     struct rg_env_need *need)
{
    rg_exec_need(need);
    struct rg_target t;
    rg_exec_target(dirfd, path, at_flags, &t);
    const char *own = need->preload, *other = NULL;
    char buf[PATH_MAX];
    bool foreign_libc = (t.kind == RG_PROG_GLIBC && OWN_LIBC != RG_LIBC_GLIBC) ||
                        (t.kind == RG_PROG_MUSL && OWN_LIBC != RG_LIBC_MUSL);
    if (own && foreign_libc)
        other = self.exec_env.other[0] ? self.exec_env.other : other_build(buf, sizeof buf);
    bool guarded =
        rg_env_choose(need, t.kind, t.native, OWN_LIBC, OWN_LIBC == RG_LIBC_GLIBC ? own : other,
                      OWN_LIBC == RG_LIBC_MUSL ? own : other);
    const char *sv;
    if (guarded || !need->session || ((sv = getenv(RG_ENV_SUPERVISED)) && *sv))
        return;
    struct rg_ctx *c = rg_ready();
    struct rg_unguarded u = {path && *path ? path : "(a descriptor)",
                             call,
                             program_invocation_short_name,
                             t.kind,
                             t.dev,
                             t.ino};
    rg_unguarded_notice(c && c->table_state != RG_TABLE_BROKEN ? c->table.hdr : NULL, need->session,
                        &u);
}

/* The LD_PRELOAD entry that loaded the shim, kept as written ($LIB and all,
 * so a 32-bit child still finds its own build), else the file it was loaded
 * from; and an entry of the other libc's build, if there is one (a musl
 * process keeps glibc's $LIB entry, which its loader skips). */
static void remember_preload(void)
{
    const char *list = getenv("LD_PRELOAD");
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ": ");
        char *slot = rg_shim_libc(p, len) == OWN_LIBC ? self.exec_env.preload : self.exec_env.other;
        if (len < PATH_MAX && !slot[0]) {
            memcpy(slot, p, len);
            slot[len] = '\0';
            if (!rg_preload_has_shim(slot))
                slot[0] = '\0';
        }
        p += len;
        p += strspn(p, ": ");
    }
    Dl_info info;
    if (!self.exec_env.preload[0] && dladdr((void *)remember_preload, &info) && info.dli_fname &&
        info.dli_fname[0] == '/')
        snprintf(self.exec_env.preload, sizeof self.exec_env.preload, "%s", info.dli_fname);
}

/* A new session must exist before main() runs: shells copy the environment
 * into their own variables at start-up and export those to their children,
 * not environ, so a READGUARD_SESSION set later would never reach them.
 * Joining an existing session stays lazy (the first hook attaches). */
__attribute__((constructor)) static void rg_start(void)
{
    int saved = errno;
    pthread_atfork(before_fork, after_fork, after_fork_child);
    rg_trampoline_map();
    remember_preload();
    const char *s = getenv(RG_ENV_SESSION);
    if (s && *s) {
        snprintf(self.exec_env.session, sizeof self.exec_env.session, "%s", s);
        errno = saved;
        return;
    }
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
        if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
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
    if (atomic_load_explicit(&self.state, memory_order_acquire) != READY && !owner_from_env() &&
        !writes_inherited_stdio()) {
        errno = saved;
        return;
    }
    struct rg_ctx *c = rg_enter();
    if (!c)
        return;
    rg_restamp_at_exit(c);
    if (self.owner_pid && self.owner_pid == (int32_t)getpid() && c->session_path[0])
        rg_sys_unlinkat(AT_FDCWD, c->session_path, 0);
    rg_leave();
    errno = saved;
}
