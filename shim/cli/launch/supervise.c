/* readguard run --supervise / --strict: the command's process installs the
 * filter before exec, readguard receives the listener and becomes the
 * supervisor. Any failure is reported and ends the run (125): supervised
 * mode never falls back to the preload alone. */
#include "cli/launch/supervise.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/corepat.h"
#include "core/jrecord.h"
#include "guard/journal/index.h"
#include "os/exec_target.h"
#include "os/session.h"
#include "os/sys.h"
#include "supervise/supervise.h"
struct rg_supervisor {
    struct rg_sv started; /* the supervisor, once started; zeroes until then */
    struct rg_ctx proto;  /* its context, made before the tree exists */
};

struct rg_supervisor *rg_supervisor_new(void) { return calloc(1, sizeof(struct rg_supervisor)); }

void rg_supervisor_free(struct rg_supervisor *s) { free(s); }

/* Under --strict the journal is sealed by its path, compared with the real
 * path of what a call of the tree names. So it is made here, before the
 * fork, with the folders versions go in (mkdir and symlink are not trapped:
 * a link planted where one is yet to be made would keep versions where the
 * tree may change them), and named by its real path (a symbolic link on
 * the way, a $HOME reached through one, would leave it unsealed). Where it
 * cannot be made, removals the tree makes are refused (guard/calls.c). */
static void journal_pin(struct rg_header *h)
{
    if ((h->flags & RG_POLICY_NO_JOURNAL) || !h->journal_dir[0])
        return;
    char sub[PATH_MAX], real[PATH_MAX];
    const char *subs[] = {RG_JOURNAL_OBJECTS, RG_JOURNAL_SESSIONS};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        if (snprintf(sub, sizeof sub, "%s/%s/" RG_JOURNAL_PIN, h->journal_dir, subs[i]) >=
            (int)sizeof sub)
            return;
        *strrchr(sub, '/') = '\0';
        if (rg_jdir_make(sub) < 0)
            return;
        /* rmdir(2) is not trapped: an empty folder could be removed and a
         * link to the tree's own directory made in its place. Anything
         * already there pins it as well. */
        sub[strlen(sub)] = '/';
        (void)mknod(sub, S_IFREG | 0600, 0);
    }
    if (realpath(h->journal_dir, real) && strlen(real) < sizeof h->journal_dir)
        memcpy(h->journal_dir, real, strlen(real) + 1);
}

/* Under --strict the supervisor appends to the log by a path that may hold
 * no symbolic link (os/logfile.h): a tree that planted one where the log
 * is would have readguard append to a file the tree may not write. So the
 * path is made real here, before the tree runs; a log named by a link
 * that does not resolve (a pipe's /dev/stderr) is then not written. */
static void log_pin(struct rg_header *h)
{
    char real[PATH_MAX], dir[PATH_MAX];
    const char *slash = strrchr(h->log_path, '/');
    if (!realpath(h->log_path, real)) {
        if (!slash || slash == h->log_path)
            return;
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - h->log_path), h->log_path);
        size_t n = realpath(dir, real) ? strlen(real) : sizeof real;
        if (n + strlen(slash) >= sizeof real)
            return;
        memcpy(real + n, slash, strlen(slash) + 1);
    }
    if (strlen(real) < sizeof h->log_path)
        memcpy(h->log_path, real, strlen(real) + 1);
}

/* Sealed from the tree, the log must be the record, not a terminal or
 * /dev/null the tree writes to by that name too (or nothing yet: the
 * supervisor makes it at its first line). */
static bool log_sealable(const char *log)
{
    struct stat st;
    return log[0] == '/' && (stat(log, &st) == 0 ? S_ISREG(st.st_mode) : errno == ENOENT);
}

/* Attached before the fork, so that no process of the tree can have put
 * another file at the path yet. Under --strict the table's own file is
 * sealed: no call of the tree may open, truncate or rename it. */
static int attach(struct rg_supervisor *s, int level, const char *session)
{
    struct rg_ctx *proto = &s->proto;
    const char *why = rg_session_attach(session, &proto->table);
    if (why) {
        rg_err("cannot attach the session table: %s", why);
        return -1;
    }
    rg_ctx_use_table(proto);
    /* The tree runs as our user: it must not read our memory (the table
     * mapping, the listener) through /proc or ptrace, not even in the
     * moment after the fork. exec makes the command dumpable again. */
    prctl(PR_SET_DUMPABLE, 0);
    struct stat st;
    if (level != RG_SUPERVISE_STRICT) {
        /* The library in each process of the tree opens the table for
         * writing to attach it: bookkeeping, not a file of the user's,
         * even where READGUARD_DIR puts it under a root. By its real path,
         * as the supervisor finds a call's. */
        if (!realpath(session, proto->session_path))
            snprintf(proto->session_path, sizeof proto->session_path, "%s", session);
        return 0;
    }
    if (stat(session, &st) != 0) {
        rg_err("cannot examine the session table: %s", strerror(errno));
        return -1;
    }
    proto->sealed_dev = st.st_dev;
    proto->sealed_ino = st.st_ino;
    journal_pin(proto->table.hdr);
    log_pin(proto->table.hdr);
    proto->log_sealed = log_sealable(proto->table.hdr->log_path);
    return 0;
}

int rg_supervise_prepare(struct rg_supervisor *s, int level, int sv[2], const char *session)
{
    sv[0] = sv[1] = -1;
    if (level == RG_SUPERVISE_NONE) {
        unsetenv(RG_ENV_TRAMPOLINE);
        unsetenv(RG_ENV_SUPERVISED);
        return 0;
    }
#if !defined(__x86_64__)
    rg_err("supervised mode is only supported on x86_64");
    return -1;
#endif
    if (attach(s, level, session) < 0)
        return -1;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        rg_err("cannot create a socket pair: %s", strerror(errno));
        return -1;
    }
    /* The shim names no program as unguarded: the supervisor reaches it. */
    setenv(RG_ENV_SUPERVISED, "1", 1);
    if (level == RG_SUPERVISE_HYBRID)
        setenv(RG_ENV_TRAMPOLINE, "1", 1);
    else
        unsetenv(RG_ENV_TRAMPOLINE);
    return 0;
}

static enum rg_sv_level sv_level(int level)
{
    return level == RG_SUPERVISE_STRICT ? RG_SV_STRICT : RG_SV_HYBRID;
}

/* Where core_pattern names a file, a crash has the kernel remove it and
 * write the dump there, with no call of the tree's to judge or journal: a
 * --strict tree dumps no core (a hard limit of 0, which an unprivileged
 * process cannot raise). Made before the filter, whose open would wait on
 * a supervisor not yet started. */
static int no_core_files(void)
{
    char pattern[256];
    int fd = open("/proc/sys/kernel/core_pattern", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, pattern, sizeof pattern - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n >= 0)
        pattern[n] = '\0';
    if (!rg_core_names_file(n >= 0 ? pattern : NULL))
        return 0;
    struct rlimit none = {0, 0};
    return setrlimit(RLIMIT_CORE, &none);
}

void rg_supervise_child(int level, int sv[2])
{
    if (level == RG_SUPERVISE_NONE)
        return;
    close(sv[0]);
    if (level == RG_SUPERVISE_STRICT && no_core_files() != 0)
        _exit(RG_EXIT_FAILURE);
    if (rg_sv_child_install(sv[1], sv_level(level)) < 0)
        _exit(RG_EXIT_FAILURE);
    close(sv[1]);
}

static int threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN) * 2;
    return n < 4 ? 4 : n > 16 ? 16 : (int)n;
}

static int start(struct rg_supervisor *s, int listener, enum rg_sv_level level)
{
    /* The umask is the target's, applied per call. */
    umask(0);
    if (rg_sv_pages_keep(&s->proto.table) < 0) {
        rg_err("cannot guard the session table's mapping: %s", strerror(errno));
        return -1;
    }
    int r = rg_sv_start(listener, level, &s->proto, threads(), &s->started);
    if (r < 0)
        rg_err("cannot start the supervisor: %s", strerror(-r));
    return r;
}

int rg_supervise_parent(struct rg_supervisor *s, int level, int sv[2], pid_t child)
{
    if (level == RG_SUPERVISE_NONE)
        return 0;
    char why[256];
    close(sv[1]);
    int listener = rg_sv_parent_receive(sv[0], why, sizeof why);
    close(sv[0]);
    if (listener >= 0 && start(s, listener, sv_level(level)) == 0)
        return 0;
    if (listener < 0)
        rg_err("cannot start supervised mode: %s", why);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return -1;
}

void rg_supervise_finish(const struct rg_supervisor *s)
{
    if (s)
        rg_sv_finish(&s->started);
}
