#include "os/gitroot.h"
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/gitroot.h"
#include "core/text.h"
#include "os/sys.h"

/* The longest entry of GIT_CEILING_DIRECTORIES above dir, as git reads the
 * list: relative entries skipped, the rest resolved unless they follow an
 * empty entry (git's way to spare slow mounts the look). -1: none. */
static long ceiling(const char *dir)
{
    const char *list = getenv("GIT_CEILING_DIRECTORIES");
    char one[PATH_MAX], real[PATH_MAX];
    bool resolve = true;
    long best = -1;
    for (const char *p = list; p && *p;) {
        const char *e = strchrnul(p, ':');
        size_t n = (size_t)(e - p);
        if (n == 0)
            resolve = false;
        else if (p[0] == '/' && n < sizeof one) {
            memcpy(one, p, n);
            one[n] = '\0';
            if ((resolve && realpath(one, real)) || rg_path_join(real, sizeof real, "/", one)) {
                long len = rg_git_ceiling_len(dir, real);
                best = len > best ? len : best;
            }
        }
        p = *e ? e + 1 : e;
    }
    return best;
}

/* Up to cap bytes of path, a regular file (a FIFO there never blocks the
 * walk): their number, or -1. */
static long read_small(const char *path, char *buf, size_t cap)
{
    int fd = rg_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    struct stat st;
    long got =
        rg_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? rg_sys_read_full(fd, buf, cap) : -1;
    rg_sys_close(fd);
    return got;
}

/* Is dir/name (dir: up to len bytes of a PATH_MAX buffer, its end restored)
 * a directory? */
static bool has_dir(char *dir, size_t len, const char *name)
{
    struct stat st;
    int n = snprintf(dir + len, PATH_MAX - len, "/%s", name);
    bool yes = n > 0 && (size_t)n < PATH_MAX - len && rg_sys_fstatat(AT_FDCWD, dir, &st, 0) == 0 &&
               S_ISDIR(st.st_mode);
    dir[len] = '\0';
    return yes;
}

/* Are objects/ and refs/ in the directory a gitdir's commondir names (a
 * linked worktree's: its HEAD is its own, the rest is the repository's)?
 * gd: a PATH_MAX buffer of len bytes, left as it was. */
static bool common_has_store(char *gd, size_t len)
{
    char buf[PATH_MAX], common[PATH_MAX];
    memcpy(gd + len, "/commondir", sizeof "/commondir");
    long got = read_small(gd, buf, sizeof buf);
    gd[len] = '\0';
    if (got <= 0 || !rg_git_line_path(buf, (size_t)got, gd, common, sizeof common))
        return false;
    size_t clen = strlen(common);
    return has_dir(common, clen, "objects") && has_dir(common, clen, "refs");
}

/* Is gd (a PATH_MAX buffer, left as it was) a repository to git
 * (setup.c's is_git_directory): a valid HEAD, and objects/ and refs/ in
 * it or in its commondir? A .git that is none (empty, or a HEAD alone)
 * git passes by to look further up; so must the walk, or a planted one
 * would make a later session's root narrower than what its git commands
 * change. The store is looked for in gd first: no commondir to open in a
 * repository's own .git. */
static bool is_git_dir(char *gd)
{
    char head[64];
    size_t len = strlen(gd);
    if (len + sizeof "/commondir" > PATH_MAX)
        return false;
    memcpy(gd + len, "/HEAD", sizeof "/HEAD");
    long got = read_small(gd, head, sizeof head);
    gd[len] = '\0';
    if (got <= 0 || !rg_git_head_valid(head, (size_t)got))
        return false;
    return (has_dir(gd, len, "objects") && has_dir(gd, len, "refs")) || common_has_store(gd, len);
}

/* Does dir hold a repository git would take: a .git directory that is one,
 * or a gitfile (a worktree's or a submodule's link) naming one? git stops
 * with an error at a gitfile naming none; the walk goes on up, the wider
 * root. */
static bool holds_git(const char *dir)
{
    char p[PATH_MAX];
    struct stat st;
    int n = snprintf(p, sizeof p, "%s/.git", strcmp(dir, "/") == 0 ? "" : dir);
    if (n < 0 || (size_t)n >= sizeof p || rg_sys_fstatat(AT_FDCWD, p, &st, 0) != 0)
        return false;
    if (S_ISDIR(st.st_mode))
        return is_git_dir(p);
    char buf[PATH_MAX];
    long got = read_small(p, buf, sizeof buf);
    static const size_t tag = sizeof "gitdir: " - 1;
    return got > 0 && rg_gitfile_says_gitdir(buf, (size_t)got) &&
           rg_git_line_path(buf + tag, (size_t)got - tag, dir, p, sizeof p) && is_git_dir(p);
}

/* The walk never looks at $HOME or above when cwd is below it (as $HOME
 * spells it): a top there is too wide anyway (core's rg_git_top_too_wide),
 * and the file system's root is never looked at for the same reason. */
static long home_ceiling(const char *cwd)
{
    const char *home = getenv("HOME");
    long len = home ? rg_git_ceiling_len(cwd, home) : -1;
    return len > 0 ? len : 0;
}

/* The top of the work tree holding cwd, as rg_default_root says; *id is
 * the top's (device, inode) when the walk looked at it, else left alone. */
static bool walk(const char *cwd, char *top, size_t cap, struct stat *id)
{
    char dir[PATH_MAX];
    size_t len = strlen(cwd);
    if (cwd[0] != '/' || len >= sizeof dir || rg_path_in_gitdir(cwd))
        return false;
    memcpy(dir, cwd, len + 1);
    bool across = rg_git_env_true(getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"));
    long ceil = ceiling(cwd), home = home_ceiling(cwd);
    ceil = home > ceil ? home : ceil;
    struct stat st;
    dev_t dev = 0;
    bool climbed = false;
    while (!holds_git(dir)) {
        size_t cut = len - 1;
        while (cut > 0 && dir[cut] != '/')
            cut--;
        if (len == 1 || !rg_git_may_climb(cut, ceil))
            return false;
        /* The device of cwd only once the walk leaves it: most sessions
         * start at the top. */
        if (!across && !climbed) {
            if (rg_sys_fstatat(AT_FDCWD, dir, &st, 0) != 0)
                return false;
            dev = st.st_dev;
        }
        climbed = true;
        len = cut ? cut : 1;
        dir[len] = '\0';
        if (!across && (rg_sys_fstatat(AT_FDCWD, dir, &st, 0) != 0 || st.st_dev != dev))
            return false;
    }
    if (len >= cap)
        return false;
    memcpy(top, dir, len + 1);
    if (climbed && !across)
        *id = st;
    return true;
}

/* GIT_WORK_TREE, resolved as git resolves it (from cwd), when it holds cwd:
 * a git command run in the session changes that tree. */
static bool env_work_tree(const char *cwd, char *top)
{
    const char *wt = getenv("GIT_WORK_TREE");
    return wt && *wt && realpath(wt, top) && rg_path_under(cwd, top);
}

/* $HOME by another name (a link to it, as Fedora's /home -> /var/home) is
 * as wide as $HOME. id is the top's, when the walk looked at it. */
static bool is_home(const char *top, const char *home, struct stat *id, bool looked)
{
    struct stat h;
    return home && *home && rg_sys_fstatat(AT_FDCWD, home, &h, 0) == 0 &&
           (looked || rg_sys_fstatat(AT_FDCWD, top, id, 0) == 0) && h.st_dev == id->st_dev &&
           h.st_ino == id->st_ino;
}

bool rg_default_root(const char *cwd, char *out, size_t cap)
{
    char top[PATH_MAX];
    struct stat id = {0};
    const char *git_dir = getenv("GIT_DIR"), *home = getenv("HOME");
    /* From $HOME or above, any top would be as wide: no walk. */
    bool found =
        !rg_git_top_too_wide(cwd, home) &&
        (env_work_tree(cwd, top) || (!(git_dir && *git_dir) && walk(cwd, top, sizeof top, &id)));
    bool wider = found && strcmp(top, cwd) != 0 && !rg_git_top_too_wide(top, home) &&
                 !is_home(top, home, &id, id.st_ino != 0);
    snprintf(out, cap, "%s", wider ? top : cwd);
    return wider;
}
