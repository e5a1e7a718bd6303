#include "preload/attach.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/settings.h"
#include "core/text.h"
#include "os/gitroot.h"
#include "os/libcvar.h"
#include "os/session.h"
#include "os/sys.h"
#include "preload/envsettings.h"

/* Roots from READGUARD_ROOTS, or the default root when it is unset or
 * empty (the working directory's git work tree, else the directory): that
 * one whole, as a colon in a directory's name separates nothing. NULL, or
 * why the variable cannot be used: a list that is cut short, names nothing,
 * or names what is no directory (a typo, more often than not) would leave
 * directories unguarded that the user meant. */
static const char *env_roots(struct rg_ctx *c, struct rg_attach_room *room)
{
    const char *env = getenv(RG_ENV_ROOTS);
    char root[PATH_MAX], one[PATH_MAX], abs[PATH_MAX];
    bool listed = env && *env;
    if (!listed) {
        /* one is free until the loop below. */
        if (!getcwd(one, sizeof one))
            snprintf(one, sizeof one, "/");
        rg_default_root(one, root, sizeof root);
        env = root;
    }
    c->nroots = 0;
    size_t o = 0;
    for (const char *p = env; *p;) {
        const char *e = listed ? strchrnul(p, ':') : p + strlen(p);
        size_t n = (size_t)(e - p);
        if (n >= sizeof one)
            return "READGUARD_ROOTS names a directory longer than PATH_MAX";
        if (n > 0) {
            memcpy(one, p, n);
            one[n] = '\0';
            struct stat st;
            if (!realpath(one, abs) || rg_sys_fstatat(AT_FDCWD, abs, &st, 0) != 0 ||
                !S_ISDIR(st.st_mode)) {
                char shown[PATH_MAX];
                rg_line_escape(shown, sizeof shown, one);
                snprintf(room->roots_problem, sizeof room->roots_problem,
                         "READGUARD_ROOTS names '%s', which is no existing directory", shown);
                return room->roots_problem;
            }
            size_t len = strlen(abs) + 1;
            if (c->nroots == RG_MAX_ROOTS || o + len > sizeof room->fallback_roots)
                return "READGUARD_ROOTS names more directories than fit (64, 4096 bytes)";
            memcpy(room->fallback_roots + o, abs, len);
            rg_ctx_add_root(c, room->fallback_roots + o);
            o += len;
        }
        p = *e ? e + 1 : e;
    }
    return c->nroots ? NULL : "READGUARD_ROOTS names no directory";
}

/* The log of the session a process was to join, which the table's header
 * would have named, from READGUARD_SESSION_LOG: copied, as the process may
 * change its environment. Only an absolute path, the same file from every
 * directory; NULL when there is none. */
static const char *lost_log(struct rg_attach_room *room)
{
    const char *env = getenv(RG_ENV_SESSION_LOG);
    if (!env || env[0] != '/')
        return NULL;
    int n = snprintf(room->lost_log, sizeof room->lost_log, "%s", env);
    return n > 0 && (size_t)n < sizeof room->lost_log ? room->lost_log : NULL;
}

/* The id of that session, from READGUARD_SESSION_ID: copied, like the log.
 * Anyone may set it, so it only labels the lines; what is not an id (a
 * quote in it would forge members of the line) is left out. */
static const char *lost_id(struct rg_attach_room *room)
{
    const char *env = getenv(RG_ENV_SESSION_ID);
    if (!env || strnlen(env, sizeof room->lost_id) == sizeof room->lost_id ||
        !rg_journal_is_id(env))
        return NULL;
    memcpy(room->lost_id, env, strlen(env) + 1);
    return room->lost_id;
}

/* A process without a usable table refuses writes under its roots; when
 * even those are unknown, everything is under the one root "/". One that
 * was to join a session (joining) takes them from READGUARD_ROOTS, which
 * every launcher sets to the session's, never from its own directory: with
 * the variable lost (an environment passed on in part), that may be far
 * less than the session guarded. It logs its refusals in the session's
 * log under its id, as it would with the table; one that was to start a
 * session has no log yet. */
static void fail_closed(struct rg_ctx *c, struct rg_attach_room *room, const char *why,
                        bool joining)
{
    c->table_state = RG_TABLE_BROKEN;
    c->problem = why;
    c->mode = RG_MODE_ENFORCE;
    c->lost_log = joining ? lost_log(room) : NULL;
    c->lost_id = joining ? lost_id(room) : NULL;
    const char *env = getenv(RG_ENV_ROOTS);
    if ((joining && !(env && *env)) || env_roots(c, room)) {
        c->nroots = 0;
        rg_ctx_add_root(c, "/");
    }
}

/* The shim's hooks never write the table's own file: cut short in place,
 * it would raise SIGBUS in every process of the session that maps it. */
static void use_table(struct rg_ctx *c)
{
    rg_ctx_use_table(c);
    c->table_kept_whole = true;
}

/* Exports name=value. A shell's own setenv (bash has one) binds a shell
 * variable that its start-up import of main()'s envp then overwrites when
 * the name is already there, empty (READGUARD_SESSION=): so an existing
 * entry is also replaced in place, in the array main() receives. */
static void export_var(char *entry, size_t cap, const char *name, const char *value)
{
    size_t n = strlen(name);
    snprintf(entry, cap, "%s=%s", name, value);
    for (char **e = rg_libc_environ(); e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            *e = entry;
    setenv(name, value, 1);
}

/* The settings of a session a preloaded process starts: the environment's,
 * its roots and their .readguardignore rules (rules: RG_IGNORES_MAX bytes).
 * NULL, or why there can be none. */
static const char *new_settings(struct rg_ctx *c, struct rg_attach_room *room,
                                struct rg_settings *s, char *log, char *rules)
{
    *s = (struct rg_settings){.mode = RG_MODE_ENFORCE,
                              .capacity = RG_DEFAULT_CAPACITY,
                              .scan_files = RG_DEFAULT_SCAN_FILES,
                              .scan_window_ns = RG_DEFAULT_SCAN_WINDOW_NS};
    const char *bad = rg_env_settings(s, log);
    if (!bad)
        bad = env_roots(c, room);
    if (bad)
        return bad;
    s->roots = c->roots;
    s->nroots = c->nroots;
    char err[256];
    struct rg_ignore_list ign = {rules, RG_IGNORES_MAX, 0, 0};
    if (rg_session_ignores(&ign, s, NULL, 0, err, sizeof err) < 0) {
        c->nroots = 0;
        return "the .readguardignore files cannot be used";
    }
    s->ignores = ign.buf;
    s->ignores_len = ign.len;
    s->nignores = ign.count;
    return NULL;
}

/* The session's variables, for its children to join it by, and for a
 * child that finds the table removed to fall back on (absolute roots, set
 * when they were not, not its own working directory; the log and the id to
 * log in). */
static void export_session(struct rg_ctx *c, struct rg_attach_room *room, struct rg_exec_env *xe,
                           int32_t owner)
{
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)owner);
    char bind[RG_TABLEBIND_MAX];
    rg_tablebind_format(bind, c->session_path, c->table.dev, c->table.ino);
    rg_xenv_set_session(xe, c->session_path, bind);
    export_var(room->env_session, sizeof room->env_session, RG_ENV_SESSION, c->session_path);
    export_var(room->env_owner, sizeof room->env_owner, RG_ENV_OWNER, pid);
    char roots[PATH_MAX];
    rg_table_roots_list(c->table.hdr, roots, sizeof roots);
    export_var(room->env_roots, sizeof room->env_roots, RG_ENV_ROOTS, roots);
    const char *log_path = c->table.hdr->log_path;
    export_var(room->env_log, sizeof room->env_log, RG_ENV_SESSION_LOG,
               log_path[0] == '/' ? log_path : "");
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, c->table.hdr->created_ns, c->table.hdr->creator_pid);
    export_var(room->env_id, sizeof room->env_id, RG_ENV_SESSION_ID, id);
    export_var(room->env_file, sizeof room->env_file, RG_ENV_SESSION_FILE, bind);
}

/* A process preloaded without a session starts one, and exports it so its
 * children join. Settings come from the environment. */
int32_t rg_attach_new(struct rg_ctx *c, struct rg_attach_room *room, struct rg_exec_env *xe,
                      struct rg_exec_wait *wait)
{
    struct rg_settings s;
    char log[RG_LOG_PATH_MAX], rules[RG_IGNORES_MAX], err[256];
    const char *bad = new_settings(c, room, &s, log, rules);
    if (bad) {
        fail_closed(c, room, bad, false);
        return 0;
    }
    int32_t owner = (int32_t)rg_sys_getpid();
    if (rg_session_create(&s, owner, c->session_path, sizeof c->session_path, err, sizeof err,
                          wait) < 0) {
        c->nroots = 0;
        snprintf(room->problem, sizeof room->problem, "no session table could be created: %s", err);
        fail_closed(c, room, room->problem, false);
        return 0;
    }
    c->nroots = 0;
    const char *why = rg_session_attach(c->session_path, &c->table);
    if (why) {
        fail_closed(c, room, why, false);
        return 0;
    }
    use_table(c);
    export_session(c, room, xe, owner);
    /* Node's libuv would open files through io_uring, unseen by the shim.
     * Only here: the environment of a process that joins is left alone
     * before main() (bash's own setenv would lose the rest of it). */
    setenv("UV_USE_IO_URING", "0", 1);
    return owner;
}

bool rg_attach_joined(struct rg_ctx *c, struct rg_attach_room *room, const char *path)
{
    /* Not snprintf: one libc function less to bind on the first hook. */
    size_t i = 0;
    for (; i + 1 < sizeof c->session_path && path[i]; i++)
        c->session_path[i] = path[i];
    c->session_path[i] = '\0';
    const char *why = rg_session_attach(path, &c->table);
    if (why) {
        fail_closed(c, room, why, true);
        return false;
    }
    use_table(c);
    return true;
}
