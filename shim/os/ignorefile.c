/* The ignore rules of a new session, gathered: the built-in ones, each
 * root's .readguardignore and the command line's. Here rather than in core
 * because it reads those files. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/ignore.h"
#include "core/settings.h"
#include "os/session.h"
#include "os/sys.h"
/* Adds root i's .readguardignore, if it has one. */
static int add_ignore_file(struct rg_ignore_list *l, const char *root, unsigned i, char *err,
                           size_t errcap)
{
    char path[PATH_MAX], text[RG_IGNORES_MAX];
    snprintf(path, sizeof path, "%s/%s", strcmp(root, "/") ? root : "", RG_IGNORE_FILE);
    int fd = rg_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
    if (fd == -ENOENT)
        return 0;
    ssize_t n = fd < 0 ? fd : read(fd, text, sizeof text);
    if (fd >= 0 && n < 0)
        n = -errno;
    if (fd >= 0)
        rg_sys_close(fd);
    if (n < 0) {
        snprintf(err, errcap, "cannot read '%s': %s", path, strerror((int)-n));
        return (int)n;
    }
    if ((size_t)n == sizeof text ||
        !rg_ignore_add_lines(l, (char)(RG_IGN_ROOT0 + i), text, (size_t)n)) {
        snprintf(err, errcap, "'%s': the ignore rules do not fit in %u bytes", path,
                 RG_IGNORES_MAX);
        return -E2BIG;
    }
    return 0;
}

int rg_session_ignores(struct rg_ignore_list *l, const struct rg_settings *s,
                       const char *const *extra, size_t nextra, char *err, size_t errcap)
{
    bool ok = true;
    if (!(s->flags & RG_POLICY_NO_DEFAULT_IGNORES)) {
        for (size_t i = 0; rg_default_ignored_dirs[i][0]; i++)
            ok &= rg_ignore_add(l, RG_IGN_ABSOLUTE, rg_default_ignored_dirs[i]);
        for (size_t i = 0; rg_default_ignores[i][0]; i++)
            ok &= rg_ignore_add(l, RG_IGN_EVERY_ROOT, rg_default_ignores[i]);
    }
    for (size_t i = 0; i < s->nroots && i < RG_IGN_MAX_ROOTS; i++) {
        int r = add_ignore_file(l, s->roots[i], (unsigned)i, err, errcap);
        if (r < 0)
            return r;
    }
    for (size_t i = 0; i < nextra; i++)
        ok &= rg_ignore_add(l, RG_IGN_EVERY_ROOT, extra[i]);
    if (!ok) {
        snprintf(err, errcap, "the ignore rules do not fit in %u bytes", RG_IGNORES_MAX);
        return -E2BIG;
    }
    return 0;
}
