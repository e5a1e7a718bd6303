#include "guard/names.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/policy.h"
#include "core/text.h"
#include "guard/ask.h"
#include "guard/journal/keep.h"
#include "guard/log.h"
#include "guard/tier/scope.h"
#include "os/errname.h"
#include "os/sys.h"
/* Deeper trees are refused rather than walked: each level holds a
 * descriptor and a buffer. */
#define MAX_DEPTH 64
#define DENTS_BUF 8192

/* One walk of a directory moved out of scope: every file is asked about
 * under its path from the caller's directory, so a refusal names it. */
struct walk {
    struct rg_ctx *c;
    const struct rg_request *req;
    char path[PATH_MAX];
};

/* A directory that cannot be looked through might hold anything. */
static int unwalkable(struct walk *w, int err)
{
    char msg[2 * PATH_MAX + 256], moved[PATH_MAX], shown[PATH_MAX];
    rg_line_escape(moved, sizeof moved, w->req->path);
    rg_line_escape(shown, sizeof shown, w->path);
    const char *name = rg_errname(err);
    int n = snprintf(msg, sizeof msg,
                     "readguard: refused to move '%s' out of the guarded files: cannot look "
                     "through '%s' (%s) to tell whether it holds a file this session never "
                     "read.\n",
                     moved, shown, name ? name : "?");
    int fd = rg_log_err_fd(w->c);
    ssize_t r = n > 0 && fd >= 0 ? write(fd, msg, (size_t)n) : 0;
    (void)r;
    return -EACCES;
}

/* A file the session may write goes out with the directory, where writes
 * keep nothing: its bytes are kept now, by a copy, as it leaves its name. */
static int ask_file(struct walk *w, int dfd, const char *name, const struct stat *st)
{
    struct rg_request r = *w->req;
    r.path = w->path;
    struct rg_file f = rg_file_of(st);
    f.new_scope = RG_SCOPE_FREE; /* the whole directory is moving out */
    if (rg_ask(w->c, &r, &f, -1, false) == RG_REFUSE)
        return -EACCES;
    r.dirfd = dfd;
    r.path = name;
    rg_journal_keep_leaving(w->c, &r, st);
    return 0;
}

static int walk_dir(struct walk *w, int dfd, int depth);

/* The entry name of directory dfd, whose path is w->path. */
static int walk_entry(struct walk *w, int dfd, const char *name, int depth)
{
    struct stat st;
    int bad = rg_sys_fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
    if (bad)
        return bad == -ENOENT ? 0 : unwalkable(w, -bad);
    if (S_ISREG(st.st_mode))
        return ask_file(w, dfd, name, &st);
    if (!S_ISDIR(st.st_mode))
        return 0;
    if (depth >= MAX_DEPTH)
        return unwalkable(w, ELOOP);
    int sub = rg_sys_openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (sub < 0)
        return unwalkable(w, -sub);
    int r = walk_dir(w, sub, depth + 1);
    rg_sys_close(sub);
    return r;
}

static int walk_dir(struct walk *w, int dfd, int depth)
{
    char *buf = malloc(DENTS_BUF);
    if (!buf)
        return unwalkable(w, ENOMEM);
    size_t len = strlen(w->path);
    int r = 0;
    for (long n; r == 0 && (n = rg_syscall6(SYS_getdents64, dfd, (long)buf, DENTS_BUF, 0, 0, 0));) {
        if (n < 0) {
            r = unwalkable(w, (int)-n);
            break;
        }
        for (long off = 0; r == 0 && off < n;) {
            const struct dirent64 *d = (const struct dirent64 *)(buf + off);
            off += d->d_reclen;
            if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
                continue;
            if (snprintf(w->path + len, sizeof w->path - len, "/%s", d->d_name) >=
                (int)(sizeof w->path - len))
                r = unwalkable(w, ENAMETOOLONG);
            else
                r = walk_entry(w, dfd, d->d_name, depth);
            w->path[len] = '\0';
        }
    }
    free(buf);
    return r;
}

/* A directory moving out of guarded scope takes its files along: each one
 * is asked about as if it were moved alone. */
static int new_dir_name(struct rg_ctx *c, const struct rg_request *req)
{
    char abs[PATH_MAX];
    if (rg_scope_of_dir(c, req->dirfd, req->path, abs, sizeof abs) != RG_SCOPE_GUARDED ||
        rg_scope_of_name(c, req->to_dirfd, req->to_path, true, abs, sizeof abs) == RG_SCOPE_GUARDED)
        return 0;
    struct walk w = {.c = c, .req = req};
    if (snprintf(w.path, sizeof w.path, "%s", req->path) >= (int)sizeof w.path)
        return unwalkable(&w, ENAMETOOLONG);
    size_t n = strlen(w.path);
    while (n > 1 && w.path[n - 1] == '/')
        w.path[--n] = '\0';
    int dfd =
        rg_sys_openat(req->dirfd, req->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (dfd < 0)
        return dfd == -ENOENT || dfd == -ENOTDIR ? 0 : unwalkable(&w, -dfd);
    int r = walk_dir(&w, dfd, 0);
    rg_sys_close(dfd);
    return r;
}

int rg_guard_new_name(struct rg_ctx *c, const struct rg_request *req)
{
    struct stat st;
    if (rg_sys_fstatat(req->dirfd, req->path, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return 0; /* the call itself will say why */
    if (S_ISDIR(st.st_mode))
        return new_dir_name(c, req);
    if (!S_ISREG(st.st_mode))
        return 0;
    struct rg_file f = rg_file_of(&st);
    return rg_ask(c, req, &f, -1, false) == RG_REFUSE ? -EACCES : 0;
}
