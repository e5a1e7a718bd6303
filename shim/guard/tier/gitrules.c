#include "guard/tier/gitrules.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gitignore.h"
#include "os/clock.h"
#include "os/sys.h"
/* A larger rules file cannot be told, so what it would ignore stays guarded. */
#define FILE_MAX (64u << 10)
#define FILES 128u
#define ARENA (512u << 10)
#define LISTS 64u

struct kept {
    uint64_t dev, ino;
    int64_t mtime_ns, ctime_ns, size;
    uint32_t off;
};

/* The files read so far, in one private mapping of the process: no
 * malloc, which a hook may not call everywhere. */
struct rg_gitcache {
    uint32_t nfiles, used;
    struct kept files[FILES];
    char arena[ARENA];
};

/* A path too long for PATH_MAX names no file readguard can read. */
__attribute__((format(printf, 2, 3))) static bool path_of(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, PATH_MAX, fmt, ap);
    va_end(ap);
    return n > 0 && n < PATH_MAX;
}

static struct rg_gitcache *map_cache(void)
{
    void *m = mmap(NULL, sizeof(struct rg_gitcache), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

/* The process's cache, or, while another thread holds it (or a fork left
 * it held), a scratch one for this question only. */
static struct rg_gitcache *take(struct rg_ctx *c, bool *scratch)
{
    *scratch = atomic_exchange_explicit(&c->git_lock, 1, memory_order_acquire) != 0;
    if (*scratch)
        return map_cache();
    if (!c->git)
        c->git = map_cache();
    if (!c->git)
        atomic_store_explicit(&c->git_lock, 0, memory_order_release);
    return c->git;
}

static void give(struct rg_ctx *c, struct rg_gitcache *g, bool scratch)
{
    if (scratch)
        munmap(g, sizeof *g);
    else
        atomic_store_explicit(&c->git_lock, 0, memory_order_release);
}

/* The text of path as it is now: kept, or read and kept. 0 with *len 0
 * when it does not exist; -1 when it exists but cannot be had whole. */
static int load(struct rg_gitcache *g, const char *path, const char **text, size_t *len)
{
    struct stat st;
    *text = "";
    *len = 0;
    int fd = rg_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);
    if (fd == -ENOENT || fd == -ENOTDIR)
        return 0;
    if (fd < 0 || rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
        if (fd >= 0)
            rg_sys_close(fd);
        return -1;
    }
    for (uint32_t i = 0; i < g->nfiles; i++) {
        struct kept *k = &g->files[i];
        if (k->ino == st.st_ino && k->dev == st.st_dev && k->size == st.st_size &&
            k->mtime_ns == rg_timespec_ns(&st.st_mtim) &&
            k->ctime_ns == rg_timespec_ns(&st.st_ctim)) {
            rg_sys_close(fd);
            *text = g->arena + k->off;
            *len = (size_t)k->size;
            return 0;
        }
    }
    ssize_t n = -1;
    if (g->nfiles < FILES && ARENA - g->used >= (size_t)st.st_size + 1)
        n = rg_sys_read_full(fd, g->arena + g->used, (size_t)st.st_size + 1);
    rg_sys_close(fd);
    /* Grown since the fstat: its stamp is not the bytes' stamp. */
    if (n != st.st_size)
        return -1;
    g->files[g->nfiles++] = (struct kept){.dev = st.st_dev,
                                          .ino = st.st_ino,
                                          .mtime_ns = rg_timespec_ns(&st.st_mtim),
                                          .ctime_ns = rg_timespec_ns(&st.st_ctim),
                                          .size = st.st_size,
                                          .off = g->used};
    *text = g->arena + g->used;
    *len = (size_t)n;
    g->used += (uint32_t)n;
    return 0;
}

/* The first line of a file's text, which is not NUL-ended. */
static int first_line(const char *text, size_t n)
{
    size_t i = 0;
    while (i < n && text[i] != '\n' && text[i] != '\r')
        i++;
    return (int)i;
}

/* dir/.git names the git directory, or is a file naming it (a linked
 * work tree, a submodule). */
static bool git_dir_of(struct rg_gitcache *g, const char *dir, char *out)
{
    char p[PATH_MAX];
    struct stat st;
    if (!path_of(p, "%s/.git", dir) || rg_sys_fstatat(AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return false;
    if (S_ISDIR(st.st_mode))
        return path_of(out, "%s", p);
    const char *text;
    size_t n;
    if (!S_ISREG(st.st_mode) || load(g, p, &text, &n) < 0 || n < 8 ||
        strncmp(text, "gitdir: ", 8) != 0)
        return false;
    int len = first_line(text + 8, n - 8);
    return text[8] == '/' ? path_of(out, "%.*s", len, text + 8)
                          : path_of(out, "%s/%.*s", dir, len, text + 8);
}

/* The top of the work tree that holds abs, and its git directory. */
static bool find_top(struct rg_gitcache *g, const char *abs, char *top, char *gitdir)
{
    snprintf(top, PATH_MAX, "%s", abs);
    for (char *slash = strrchr(top, '/'); slash; slash = strrchr(top, '/')) {
        *slash = '\0';
        if (git_dir_of(g, slash == top ? "" : top, gitdir))
            return true;
    }
    return false;
}

static bool add(struct rg_gitcache *g, struct rg_exclude_list *l, size_t *n, const char *path,
                const char *base, size_t base_len)
{
    const char *text;
    size_t len;
    if (load(g, path, &text, &len) < 0 || *n >= LISTS)
        return false;
    if (len > 0)
        l[(*n)++] = (struct rg_exclude_list){base, base_len, text, len};
    return true;
}

/* The i-th config file git reads, lowest precedence first: system, global
 * (GIT_CONFIG_GLOBAL, or the XDG one and ~/.gitconfig), the repository's. */
static bool config_path(int i, const char *home, const char *xdg, const char *common, char *out)
{
    const char *nosys = getenv("GIT_CONFIG_NOSYSTEM"), *global = getenv("GIT_CONFIG_GLOBAL");
    switch (i) {
    case 0:
        return !(nosys && nosys[0] && strcmp(nosys, "0") != 0) && path_of(out, "/etc/gitconfig");
    case 1:
        if (global)
            return global[0] && path_of(out, "%s", global);
        return (xdg || home) &&
               path_of(out, "%s%s/git/config", xdg ? xdg : home, xdg ? "" : "/.config");
    case 2: return !global && home && path_of(out, "%s/.gitconfig", home);
    default: return path_of(out, "%s/config", common);
    }
}

/* core.excludesFile: the last config that sets it wins; unset, git reads
 * $XDG_CONFIG_HOME/git/ignore. */
static void excludes_file(struct rg_gitcache *g, const char *common, char *out)
{
    const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
    if (!home || home[0] != '/')
        home = NULL;
    if (!xdg || xdg[0] != '/')
        xdg = NULL;
    char cfg[PATH_MAX];
    out[0] = '\0';
    if ((xdg || home) && !path_of(out, "%s%s/git/ignore", xdg ? xdg : home, xdg ? "" : "/.config"))
        out[0] = '\0';
    for (int i = 0; i < 4; i++) {
        const char *text;
        size_t len;
        /* The value is read into cfg itself: its path is no longer needed. */
        if (!config_path(i, home, xdg, common, cfg) || load(g, cfg, &text, &len) < 0 ||
            !rg_gitconfig_excludes(text, len, cfg, sizeof cfg))
            continue;
        bool tilde = cfg[0] == '~' && cfg[1] == '/';
        if (!(tilde ? path_of(out, "%s%s", home ? home : "", cfg + 1) : path_of(out, "%s", cfg)))
            out[0] = '\0';
    }
}

/* A linked work tree keeps info/ and config in the common git directory. */
static void common_dir(struct rg_gitcache *g, const char *gitdir, char *out)
{
    char p[PATH_MAX];
    const char *text;
    size_t n;
    snprintf(out, PATH_MAX, "%s", gitdir);
    if (!path_of(p, "%s/commondir", gitdir) || load(g, p, &text, &n) < 0 || n == 0)
        return;
    int len = first_line(text, n);
    if (!(text[0] == '/' ? path_of(out, "%.*s", len, text)
                         : path_of(out, "%s/%.*s", gitdir, len, text)))
        snprintf(out, PATH_MAX, "%s", gitdir);
}

static bool ignores(struct rg_gitcache *g, const char *abs)
{
    char top[PATH_MAX], gitdir[PATH_MAX], common[PATH_MAX], p[PATH_MAX];
    struct rg_exclude_list lists[LISTS];
    size_t n = 0;
    if (!find_top(g, abs, top, gitdir))
        return false;
    const char *rel = abs + strlen(top) + 1;
    common_dir(g, gitdir, common);
    excludes_file(g, common, p);
    bool ok = !p[0] || add(g, lists, &n, p, rel, 0);
    ok = ok && path_of(p, "%s/info/exclude", common) && add(g, lists, &n, p, rel, 0);
    /* A .gitignore in each directory from the top down to the file's. */
    for (const char *d = rel; ok;) {
        size_t base = (size_t)(d - rel);
        ok = path_of(p, "%s/%.*s%s.gitignore", top, (int)base, rel, base ? "/" : "") &&
             add(g, lists, &n, p, rel, base);
        if (!(d = strchr(d + (base > 0), '/')))
            break;
    }
    return ok && rg_git_excluded(lists, n, rel);
}

bool rg_git_ignores(struct rg_ctx *c, const char *abs)
{
    bool scratch;
    struct rg_gitcache *g = take(c, &scratch);
    if (!g)
        return false;
    /* Room for one question's files: start over rather than fail. */
    if (g->used > ARENA / 2 || g->nfiles > FILES / 2)
        g->nfiles = g->used = 0;
    bool r = ignores(g, abs);
    give(c, g, scratch);
    return r;
}
