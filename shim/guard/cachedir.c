#include "guard/cachedir.h"
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "os/sys.h"
static const char signature[] = "Signature: 8a477f597d28d172789f06886806bc55";
static const char tag_name[] = "/CACHEDIR.TAG";

/* Any other file of that name (a link, a FIFO, a device, a file of other
 * bytes) tags nothing: only a regular file is opened, and only the
 * signature's length is read. */
static bool tagged(const char *dir, size_t n)
{
    char p[PATH_MAX];
    char head[sizeof signature - 1];
    struct stat st;
    if (n + sizeof tag_name > sizeof p)
        return false;
    memcpy(p, dir, n);
    memcpy(p + n, tag_name, sizeof tag_name);
    /* The stat spares opening a device, and is all a directory without a
     * tag costs. */
    if (rg_sys_fstatat(AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size < (off_t)sizeof head)
        return false;
    int fd =
        rg_sys_openat(AT_FDCWD, p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
    if (fd < 0)
        return false;
    /* Swapped for something else since the stat: read only a regular file. */
    bool ok = rg_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              rg_sys_read_full(fd, head, sizeof head) == (long)sizeof head &&
              memcmp(head, signature, sizeof head) == 0;
    rg_sys_close(fd);
    return ok;
}

bool rg_cachedir_tagged(const char *abs, const char *root)
{
    /* The root "/" is the directory "" before a slash. */
    size_t stop = strcmp(root, "/") == 0 ? 0 : strlen(root);
    size_t n = strlen(abs);
    while (n > 0 && abs[n - 1] != '/')
        n--;
    /* abs[0, n) ends in the slash after each directory, from abs's up. */
    for (; n > stop; n--) {
        if (abs[n - 1] == '/' && tagged(abs, n - 1))
            return true;
    }
    return false;
}
