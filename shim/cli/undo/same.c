#include "cli/undo/same.h"
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/journal/symlink.h"
#include "os/sys.h"

static bool same_bytes(int a, int b)
{
    char x[16384], y[16384];
    for (;;) {
        ssize_t n = rg_sys_read_full(a, x, sizeof x), m = rg_sys_read_full(b, y, sizeof y);
        if (n < 0 || n != m || memcmp(x, y, (size_t)n) != 0)
            return false;
        if (n == 0)
            return true;
    }
}

bool rg_undo_holds(const char *dir, const char *object, uint32_t mode, const char *abs)
{
    char obj[PATH_MAX + 80];
    if (S_ISLNK(mode))
        return rg_jsym_holds(dir, object, abs);
    rg_jstore_object(obj, sizeof obj, dir, object);
    struct stat st, ost;
    if (lstat(abs, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 07777) != (mode & 07777))
        return false;
    int a = open(obj, O_RDONLY | O_CLOEXEC), b = open(abs, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    /* The sizes first: a large file that differs is not read twice over. */
    bool same =
        a >= 0 && b >= 0 && fstat(a, &ost) == 0 && ost.st_size == st.st_size && same_bytes(a, b);
    if (a >= 0)
        close(a);
    if (b >= 0)
        close(b);
    return same;
}

const struct rg_jrec *rg_undo_kept_as_left(const struct rg_jlist *l, const struct rg_jrec *end)
{
    for (size_t i = 0; i < l->n; i++) {
        const struct rg_jrec *k = &l->r[i];
        if (rg_jrec_is_save(k) && k->object && k->time_ns >= end->time_ns &&
            strcmp(k->path, end->path) == 0 && k->dev == end->dev && k->ino == end->ino &&
            k->mtime_ns == end->mtime_ns && k->size == end->size)
            return k;
    }
    return NULL;
}
