#include "guard/tier/scope.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/ignore.h"
#include "core/request.h"
#include "core/text.h"
#include "guard/tier/dirmark.h"
#include "guard/tier/filemark.h"
#include "guard/tier/gitrules.h"
#include "guard/tier/tiercache.h"
#include "os/procfd.h"
#include "os/sys.h"
static bool fd_path(int fd, char *out, size_t cap)
{
    long n = rg_fd_path(fd, out, cap);
    /* A full buffer may be a cut-off path: a prefix of a root's path is not
     * under the root, so trusting it would leave the file unguarded. */
    return n >= 0 && (size_t)n < cap - 1;
}

/* Without /proc (some sandboxes), fall back to the lexical path. */
static bool lexical_path(int dirfd, const char *path, char *out, size_t cap)
{
    char base[PATH_MAX];
    if (path[0] != '/') {
        if (dirfd == AT_FDCWD ? !getcwd(base, sizeof base) : !fd_path(dirfd, base, sizeof base))
            return false;
    } else {
        base[0] = '\0';
    }
    return rg_path_join(out, cap, base, path);
}

/* The session's own table and log are its bookkeeping, never the user's data. */
static bool is_session_file(const struct rg_ctx *c, const char *abs)
{
    return strcmp(abs, c->session_path) == 0 ||
           (c->table.hdr && strcmp(abs, c->table.hdr->log_path) == 0);
}

/* Where readguard's rules do not decide, the project's do: what git
 * ignores, what its tools marked as theirs (a cache tag, a virtual
 * environment), an SQLite database, configure's log and script, a build
 * artifact (a wheel, a Sphinx doctree) and a test or coverage report are
 * journaled. A marker counts up to the innermost root, the one that
 * protects most. fd: on abs, or -1. */
static bool project_journals(struct rg_ctx *c, const char *abs, int fd, size_t inner)
{
    return rg_git_ignores(c, abs) || rg_dirmark_marked(abs, c->roots[inner]) ||
           rg_file_marked(abs, fd);
}

/* With several roots, the one that protects it most decides. Asking the
 * project decides between guarded and journaled where readguard's rules
 * do not. */
static enum rg_scope classify(struct rg_ctx *c, const char *abs, int fd, bool ask_project)
{
    enum rg_tier tier = RG_TIER_FREE;
    size_t inner = c->nroots;
    for (size_t i = 0; i < c->nroots && tier != RG_TIER_GUARD; i++) {
        if (!rg_path_under(abs, c->roots[i]))
            continue;
        if (inner == c->nroots || c->root_len[i] > c->root_len[inner])
            inner = i;
        struct rg_rules r = {c->ignores, c->ignores_len, c->roots[i], (unsigned)i};
        enum rg_tier t = rg_tiercache_tier(&c->tiers, &r, abs);
        if (t > tier)
            tier = t;
    }
    if (tier == RG_TIER_NONE)
        tier = ask_project && project_journals(c, abs, fd, inner) ? RG_TIER_JOURNAL : RG_TIER_GUARD;
    return tier == RG_TIER_FREE      ? RG_SCOPE_FREE
           : tier == RG_TIER_JOURNAL ? RG_SCOPE_JOURNALED
                                     : RG_SCOPE_GUARDED;
}

/* The real path of dirfd/path, not following a final symlink. */
static bool locate_path(int dirfd, const char *path, char *abs, size_t cap)
{
    int pfd = rg_sys_openat(dirfd, path, O_PATH | O_CLOEXEC | O_NOFOLLOW, 0);
    bool found = pfd >= 0 && fd_path(pfd, abs, cap);
    if (pfd >= 0)
        rg_sys_close(pfd);
    return found || lexical_path(dirfd, path, abs, cap);
}

enum rg_scope rg_scope_locate(struct rg_ctx *c, int dirfd, const char *path, int fd, bool follow,
                              bool ask_project, char *abs, size_t cap)
{
    bool found = fd >= 0 && fd_path(fd, abs, cap);
    if (!found && path) {
        int pfd = rg_sys_openat(dirfd, path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW), 0);
        if (pfd >= 0) {
            found = fd_path(pfd, abs, cap);
            rg_sys_close(pfd);
        }
    }
    if (!found && !(path && lexical_path(dirfd, path, abs, cap))) {
        snprintf(abs, cap, "%s", path ? path : "?");
        return RG_SCOPE_GUARDED; /* cannot tell where it is: guard it */
    }
    return is_session_file(c, abs) ? RG_SCOPE_FREE : classify(c, abs, fd, ask_project);
}

enum rg_scope rg_scope_locate_plain(struct rg_ctx *c, int dirfd, const char *path, int fd,
                                    char *abs, size_t cap)
{
    if ((path[0] == '/' || dirfd == AT_FDCWD) && lexical_path(dirfd, path, abs, cap))
        return is_session_file(c, abs) ? RG_SCOPE_FREE : classify(c, abs, -1, false);
    return rg_scope_locate(c, dirfd, path, fd, false, false, abs, cap);
}

/* A directory is guarded where a file in it would be (under a name no rule
 * names), or when it holds a root: moving it moves the root's files. */
static enum rg_scope classify_dir(struct rg_ctx *c, char *abs, size_t cap)
{
    for (size_t i = 0; i < c->nroots; i++)
        if (rg_path_under(c->roots[i], abs))
            return RG_SCOPE_GUARDED;
    size_t n = strlen(abs);
    if (n + 3 > cap)
        return RG_SCOPE_GUARDED;
    memcpy(abs + n, "/\x01", 3);
    enum rg_scope s = classify(c, abs, -1, true);
    abs[n] = '\0';
    return s;
}

enum rg_scope rg_scope_of_dir(struct rg_ctx *c, int dirfd, const char *path, char *abs, size_t cap)
{
    if (!locate_path(dirfd, path, abs, cap))
        return RG_SCOPE_GUARDED;
    return classify_dir(c, abs, cap);
}

/* Does the call fail with err, as this lookup of its directory did? Then
 * the program must see err from the call, not a refusal. Resource errors
 * (EMFILE, ENOMEM) are ours alone. */
static bool call_fails_too(int err)
{
    return err == ENOENT || err == ENOTDIR || err == EBADF || err == ENAMETOOLONG || err == ELOOP ||
           err == EACCES;
}

enum rg_scope rg_scope_of_name(struct rg_ctx *c, int dirfd, const char *path, bool dir, char *abs,
                               size_t cap)
{
    char parent[PATH_MAX];
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--; /* rename(2) takes "d/" for a directory */
    if (n >= sizeof parent)
        return RG_SCOPE_GUARDED; /* the call fails: ENAMETOOLONG */
    memcpy(parent, path, n);
    parent[n] = '\0';
    char *slash = strrchr(parent, '/');
    const char *base = slash ? slash + 1 : parent;
    if (slash == parent)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    int pfd = rg_sys_openat(dirfd, slash ? parent : ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (pfd < 0 && call_fails_too(-pfd))
        return RG_SCOPE_GUARDED;
    char dirpath[PATH_MAX];
    bool found =
        pfd >= 0 && fd_path(pfd, dirpath, sizeof dirpath) && rg_path_join(abs, cap, dirpath, base);
    if (pfd >= 0)
        rg_sys_close(pfd);
    /* Unlocated, the new name counts as outside: a refusal, never a hole. */
    if (!found && !lexical_path(dirfd, path, abs, cap))
        return RG_SCOPE_FREE;
    return dir ? classify_dir(c, abs, cap) : classify(c, abs, -1, true);
}

enum rg_scope rg_scope_backup(struct rg_ctx *c, bool known, int dirfd, const char *from,
                              const char *to)
{
    char abs[PATH_MAX];
    if (!rg_backup_name(from, to))
        return RG_SCOPE_UNKNOWN;
    if (known ||
        rg_scope_locate(c, dirfd, from, -1, false, true, abs, sizeof abs) != RG_SCOPE_GUARDED)
        return RG_SCOPE_JOURNALED;
    return RG_SCOPE_UNKNOWN;
}
