/* Paths that mean "the calling process". The supervisor resolves paths for
 * the process it traps, and in the supervisor these names would mean the
 * supervisor itself: its descriptors, its memory. And paths through another
 * process of the tree (/proc/$$/cwd/f), which the caller may cross as it
 * could without readguard. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "os/lineage.h"
#include "os/sys.h"
#include "supervise/supervise.h"
/* Does path start with the component sequence prefix (followed by / or end)?
 * Returns the rest (including its leading slash), or NULL. */
static const char *after(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n) != 0 || (path[n] != '\0' && path[n] != '/'))
        return NULL;
    return path + n;
}

static bool put(char *out, size_t cap, const char *head, long a, long b, const char *rest)
{
    int n = b >= 0 ? snprintf(out, cap, head, a, b, rest) : snprintf(out, cap, head, a, rest);
    return n > 0 && (size_t)n < cap;
}

int32_t rg_sv_proc_pid(const char *path)
{
    const char *p = path + 6;
    int64_t pid = 0;
    if (strncmp(path, "/proc/", 6) != 0 || *p < '1' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((pid = pid * 10 + (*p - '0')) > INT32_MAX)
            return 0;
    return *p == '/' || *p == '\0' ? (int32_t)pid : 0;
}

bool rg_sv_tree_proc(const char *path)
{
    int32_t pid = rg_sv_proc_pid(path), me = (int32_t)getpid();
    return pid > 0 && pid != me && rg_descends(pid, me);
}

bool rg_sv_rewrite_self(const char *path, int32_t tgid, int32_t tid, char *out, size_t cap)
{
    static const char *const stdio[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr"};
    const char *rest;
    if ((rest = after(path, "/proc/self")))
        return put(out, cap, "/proc/%ld%s", tgid, -1, rest);
    if ((rest = after(path, "/proc/thread-self")))
        return put(out, cap, "/proc/%ld/task/%ld%s", tgid, tid, rest);
    if ((rest = after(path, "/dev/fd")))
        return put(out, cap, "/proc/%ld/fd%s", tgid, -1, rest);
    for (long i = 0; i < 3; i++)
        if (strcmp(path, stdio[i]) == 0)
            return put(out, cap, "/proc/%ld/fd/%ld%s", tgid, i, "");
    return false;
}

/* Past a process id or a name component: "1234/..." -> "/...", or NULL. */
static const char *skip_pid(const char *p)
{
    if (*p < '1' || *p > '9')
        return NULL;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '/' ? p : NULL;
}

/* The length of the magic link path starts with, /proc/PID[/task/TID]/ then
 * cwd, root, exe, fd/N, ns/NAME or map_files/NAME; 0 if it starts with none. */
static size_t proc_link_len(const char *path)
{
    static const char *const bare[] = {"cwd", "root", "exe"};
    static const char *const named[] = {"fd/", "ns/", "map_files/"};
    const char *p = strncmp(path, "/proc/", 6) == 0 ? skip_pid(path + 6) : NULL;
    if (p && strncmp(p, "/task/", 6) == 0)
        p = skip_pid(p + 6);
    if (!p++)
        return 0;
    for (size_t i = 0; i < sizeof bare / sizeof *bare; i++) {
        const char *rest = after(p, bare[i]);
        if (rest)
            return (size_t)(rest - path);
    }
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t n = strlen(named[i]), len;
        if (strncmp(p, named[i], n) != 0 || !(len = strcspn(p + n, "/")) ||
            strncmp(p + n, "..", len) == 0 || strncmp(p + n, ".", len) == 0)
            continue;
        return (size_t)(p + n + len - path);
    }
    return 0;
}

int rg_sv_cross(const char **path, uint64_t *resolve)
{
    size_t len = proc_link_len(*path);
    *resolve = RESOLVE_NO_MAGICLINKS;
    if (!len)
        return AT_FDCWD;
    const char *rest = *path + len;
    while (*rest == '/')
        rest++;
    if (!*rest) {
        *resolve = 0;
        return AT_FDCWD;
    }
    char link[PATH_MAX];
    if (len >= sizeof link)
        return -ENAMETOOLONG;
    memcpy(link, *path, len);
    link[len] = '\0';
    int fd = rg_sys_openat(AT_FDCWD, link, O_PATH | O_CLOEXEC, 0);
    if (fd >= 0)
        *path = rest;
    return fd;
}
