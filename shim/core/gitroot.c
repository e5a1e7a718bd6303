#include "core/gitroot.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/text.h"

long rg_git_ceiling_len(const char *dir, const char *ceil)
{
    size_t len = strlen(ceil);
    if (strcmp(dir, "/") == 0 || ceil[0] != '/')
        return -1;
    if (len > 0 && ceil[len - 1] == '/')
        len--;
    if (strncmp(dir, ceil, len) != 0 || dir[len] != '/' || dir[len + 1] == '\0')
        return -1;
    return (long)len;
}

bool rg_git_may_climb(size_t cut, long ceiling_len) { return (long)cut > ceiling_len; }

bool rg_gitfile_says_gitdir(const char *buf, size_t n)
{
    static const char tag[] = "gitdir: ";
    size_t t = sizeof tag - 1;
    return n > t && memcmp(buf, tag, t) == 0 && buf[t] != '\n' && buf[t] != '\r';
}

bool rg_git_line_path(const char *buf, size_t n, const char *base, char *out, size_t cap)
{
    char line[PATH_MAX];
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    if (n == 0 || n >= sizeof line || memchr(buf, '\0', n))
        return false;
    memcpy(line, buf, n);
    line[n] = '\0';
    return rg_path_join(out, cap, base, line);
}

static size_t hex_run(const char *buf, size_t n)
{
    size_t i = 0;
    while (i < n && ((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f') ||
                     (buf[i] >= 'A' && buf[i] <= 'F')))
        i++;
    return i;
}

bool rg_git_head_valid(const char *buf, size_t n)
{
    if (n >= 4 && memcmp(buf, "ref:", 4) == 0) {
        size_t i = 4;
        /* git's own isspace: no locale's. */
        while (i < n && strchr(" \t\n\r", buf[i]) && buf[i])
            i++;
        return n - i >= 5 && memcmp(buf + i, "refs/", 5) == 0;
    }
    return hex_run(buf, n) >= 40;
}

bool rg_git_env_true(const char *value)
{
    if (!value || !*value)
        return false;
    if (strcasecmp(value, "true") == 0 || strcasecmp(value, "yes") == 0 ||
        strcasecmp(value, "on") == 0)
        return true;
    char *end;
    long n = strtol(value, &end, 0);
    return *end == '\0' && n != 0;
}

bool rg_path_in_gitdir(const char *path)
{
    for (const char *p = strstr(path, "/.git"); p; p = strstr(p + 1, "/.git"))
        if (p[5] == '\0' || p[5] == '/')
            return true;
    return false;
}

bool rg_git_top_too_wide(const char *top, const char *home)
{
    if (strcmp(top, "/") == 0)
        return true;
    char norm[PATH_MAX];
    return home && home[0] == '/' && rg_path_join(norm, sizeof norm, "/", home) &&
           rg_path_under(norm, top);
}
