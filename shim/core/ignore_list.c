/* A session's ignore rules as one packed list (core/ignore.h): the
 * defaults, lines of .readguardignore, --ignore and git's files cleaned and
 * added, and the walk over them. Matching a path against them is
 * ignore.c's. */
#include <string.h>

#include "core/ignore.h"

/* Outputs of builds and package managers, VCS internals and editor swap
 * files: written by tools, never hand-written data, and regenerated at will.
 * javac writes a *.class in place (O_TRUNC), where gcc's as and ld unlink
 * a *.o first, so a second session's javac would be refused without it.
 * autom4te.cache/ is autoconf's, which rewrites its requests file in place
 * unread (autoreconf, and make's regenerate rules). */
const char rg_default_ignores[][RG_DEFAULT_RULE_MAX] = {
    ".git/",   ".hg/",         ".svn/",           "*.o",     "*.a",    "*.so",
    "*.pyc",   "__pycache__/", "node_modules/",   "target/", "build/", "dist/",
    ".cache/", "*.swp",        "autom4te.cache/", "*.class", "",
};

/* Kernel and scratch file systems. They are skipped only below a root that
 * contains them: a root chosen inside /tmp is guarded as asked. */
const char rg_default_ignored_dirs[][RG_DEFAULT_RULE_MAX] = {
    "/dev", "/proc", "/sys", "/run", "/tmp", "/var/tmp", "",
};

/* Length of a gitignore line without its trailing spaces, unless a
 * backslash escapes them ("a\ " keeps its space), as git does. */
static size_t trimmed_len(const char *s, size_t n)
{
    size_t spaces_from = n;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ') {
            if (spaces_from == n)
                spaces_from = i;
            continue;
        }
        spaces_from = n;
        if (s[i] == '\\' && i + 1 < n)
            i++;
    }
    return spaces_from;
}

size_t rg_ignore_clean(const char *line, size_t n)
{
    if (n > 0 && line[n - 1] == '\r')
        n--;
    n = trimmed_len(line, n);
    return n == 0 || line[0] == '#' ? 0 : n;
}

static bool add_n(struct rg_ignore_list *l, char scope, const char *rule, size_t n)
{
    if (scope != RG_IGN_ABSOLUTE) {
        n = rg_ignore_clean(rule, n);
        if (n == 0)
            return true;
    }
    if (n == 0 || memchr(rule, '\0', n) || l->len + n + 2 > l->cap)
        return n == 0;
    l->buf[l->len++] = scope;
    memcpy(l->buf + l->len, rule, n);
    l->len += n;
    l->buf[l->len++] = '\0';
    l->count++;
    return true;
}

bool rg_ignore_add(struct rg_ignore_list *l, char scope, const char *rule)
{
    return add_n(l, scope, rule, strlen(rule));
}

bool rg_ignore_add_lines(struct rg_ignore_list *l, char scope, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (!add_n(l, scope, p, n))
            return false;
        p += n + 1;
    }
    return true;
}

const char *rg_ignore_next(const char *list, size_t len, const char *prev, char *scope)
{
    const char *p = prev ? prev + strlen(prev) + 1 : list;
    const char *end = list + len;
    if (p + 1 >= end || !memchr(p + 1, '\0', (size_t)(end - p - 1)))
        return NULL;
    *scope = p[0];
    return p + 1;
}
