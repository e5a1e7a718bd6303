#include "guard/tier/dirmark.h"
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "core/toolmark.h"
#include "guard/tier/filehead.h"
#include "os/sys.h"
/* p = dir[0, n) "/" name; false when it does not fit. */
static bool join(char p[PATH_MAX], const char *dir, size_t n, const char *name)
{
    size_t len = strlen(name);
    if (n + 1 + len + 1 > PATH_MAX)
        return false;
    memcpy(p, dir, n);
    p[n] = '/';
    memcpy(p + n + 1, name, len + 1);
    return true;
}

/* Anything of that name counts, even a dangling link: a name only ever
 * takes a marker's word away. */
static bool present(const char *dir, size_t n, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    return join(p, dir, n, name) && rg_sys_fstatat(AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Any other file of a marker's name (a link, a FIFO, a device, a file of
 * other bytes) marks nothing: only a regular file is opened, and only the
 * bytes the marker needs are read. */
static bool marked_by(const char *dir, size_t n, size_t stop, const struct rg_dirmark *m)
{
    char p[PATH_MAX];
    char head[RG_DIRMARK_HEAD_MAX];
    if (!rg_dirmark_fits(m, dir, n))
        return false;
    /* dir[0, n) becomes the marker's directory, which a root must hold. */
    for (unsigned up = m->up; up > 0; up--) {
        while (n > 0 && dir[n - 1] != '/')
            n--;
        if (n == 0 || n - 1 < stop)
            return false;
        n--;
    }
    if (!join(p, dir, n, m->name))
        return false;
    long got = rg_file_head(p, head, m->head < sizeof head ? m->head : sizeof head);
    return got > 0 && rg_dirmark_says(m, head, (size_t)got) &&
           !(m->unless[0] && present(dir, n, m->unless));
}

static bool marked(const char *dir, size_t n, size_t stop)
{
    for (size_t i = 0; i < rg_ndirmarks; i++)
        if (marked_by(dir, n, stop, &rg_dirmarks[i]))
            return true;
    return false;
}

bool rg_dirmark_marked(const char *abs, const char *root)
{
    /* The root "/" is the directory "" before a slash. */
    size_t stop = strcmp(root, "/") == 0 ? 0 : strlen(root);
    size_t n = strlen(abs);
    while (n > 0 && abs[n - 1] != '/')
        n--;
    /* abs[0, n) ends in the slash after each directory, from abs's up. */
    for (; n > stop; n--) {
        if (abs[n - 1] == '/' && marked(abs, n - 1, stop))
            return true;
    }
    return false;
}
