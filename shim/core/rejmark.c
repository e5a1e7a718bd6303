#include "core/rejmark.h"
#include <string.h>

static bool starts(const char *head, size_t n, const char *text)
{
    size_t len = strlen(text);
    return n >= len && memcmp(head, text, len) == 0;
}

/* One header line: tag, a space, a path up to a tab (diff's time) or the
 * line's end. *path and *len get the path; the return is past the line,
 * or NULL when the line is not one. */
static const char *header_line(const char *head, size_t n, const char *tag, const char **path,
                               size_t *len)
{
    size_t t = strlen(tag);
    if (!starts(head, n, tag) || n <= t || head[t] != ' ')
        return NULL;
    const char *nl = memchr(head, '\n', n);
    if (!nl)
        return NULL;
    *path = head + t + 1;
    const char *tab = memchr(*path, '\t', (size_t)(nl - *path));
    *len = (size_t)((tab ? tab : nl) - *path);
    return *len ? nl + 1 : NULL;
}

/* Is the path (len bytes) base itself, or a path whose last part it is? */
static bool names(const char *path, size_t len, const char *base, size_t blen)
{
    if (len < blen || memcmp(path + len - blen, base, blen) != 0)
        return false;
    return len == blen || path[len - blen - 1] == '/';
}

static bool dev_null(const char *path, size_t len)
{
    return len == sizeof "/dev/null" - 1 && memcmp(path, "/dev/null", len) == 0;
}

bool rg_patch_rejects(const char *name, const char *head, size_t n)
{
    size_t blen = strlen(name);
    if (blen <= 4 || strcmp(name + blen - 4, ".rej") != 0)
        return false;
    blen -= 4;
    bool unified = starts(head, n, "--- ");
    const char *p, *q;
    size_t plen, qlen;
    const char *second = header_line(head, n, unified ? "---" : "***", &p, &plen);
    if (!second)
        return false;
    size_t rest = n - (size_t)(second - head);
    const char *third = header_line(second, rest, unified ? "+++" : "---", &q, &qlen);
    if (!third)
        return false;
    rest = n - (size_t)(third - head);
    if (!starts(third, rest, unified ? "@@ -" : "***************\n"))
        return false;
    if (!unified && dev_null(p, plen) && dev_null(q, qlen))
        return true;
    return names(p, plen, name, blen) || names(q, qlen, name, blen);
}
