#include "core/ignore.h"
#include <limits.h>
#include <string.h>

#include "core/text.h"
#include "core/wildmatch.h"
/* Outputs of builds and package managers, VCS internals and editor swap
 * files: written by tools, never hand-written data, and regenerated at will. */
const char *const rg_default_ignores[] = {
    ".git/",         ".hg/",    ".svn/",  "*.o",   "*.a",     "*.so",  "*.pyc", "__pycache__/",
    "node_modules/", "target/", "build/", "dist/", ".cache/", "*.swp", NULL,
};

/* Kernel and scratch file systems. They are skipped only below a root that
 * contains them: a root chosen inside /tmp is guarded as asked. */
const char *const rg_default_ignored_dirs[] = {
    "/dev", "/proc", "/sys", "/run", "/tmp", "/var/tmp", NULL,
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

static const struct {
    const char *word;
    enum rg_tier tier;
} keywords[] = {{"guard", RG_TIER_GUARD}, {"journal", RG_TIER_JOURNAL}, {"free", RG_TIER_FREE}};

enum rg_tier rg_rule_tier(const char *rule, const char **pattern)
{
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++) {
        if (rule[0] != keywords[i].word[0])
            continue; /* most rules have no keyword: one byte tells */
        size_t n = strlen(keywords[i].word);
        if (strncmp(rule, keywords[i].word, n) == 0 && rule[n] == ' ') {
            for (rule += n; *rule == ' ';)
                rule++;
            *pattern = rule;
            return keywords[i].tier;
        }
    }
    *pattern = rule;
    return RG_TIER_FREE;
}

enum rg_match rg_pattern_match(const char *pat, const char *path, const char *name, bool dir)
{
    bool negated = pat[0] == '!';
    char buf[PATH_MAX];
    size_t n = strlen(pat + negated);
    bool dir_only = n > 0 && pat[negated + n - 1] == '/';
    /* Most built-in rules name directories: a file is done with them here. */
    if (n >= sizeof buf || (dir_only && !dir))
        return RG_MATCH_NONE;
    memcpy(buf, pat + negated, n + 1);
    if (dir_only)
        buf[--n] = '\0';
    if (n == 0)
        return RG_MATCH_NONE;
    int m = strchr(buf, '/') ? rg_wildmatch_bounded(buf[0] == '/' ? buf + 1 : buf, path, true)
                             : rg_wildmatch_bounded(buf, name, true);
    /* A rule too costly to decide fails closed: it neither ignores a path
     * nor keeps one ignored, so the path stays guarded. */
    if (m == RG_WM_TOO_COSTLY)
        return negated ? RG_MATCH_INCLUDED : RG_MATCH_NONE;
    return m == RG_WM_NOMATCH ? RG_MATCH_NONE : negated ? RG_MATCH_INCLUDED : RG_MATCH_EXCLUDED;
}

static bool applies(char scope, unsigned root_index)
{
    return scope == RG_IGN_EVERY_ROOT || (unsigned char)scope == RG_IGN_ROOT0 + root_index;
}

/* The last rule that matches decides; a '!' rule leaves the path to git. */
static enum rg_tier rules_tier(const char *list, size_t len, unsigned root_index, const char *path,
                               const char *name, bool dir)
{
    enum rg_tier last = RG_TIER_NONE;
    char scope;
    for (const char *r = rg_ignore_next(list, len, NULL, &scope); r;
         r = rg_ignore_next(list, len, r, &scope)) {
        if (!applies(scope, root_index))
            continue;
        const char *pat;
        enum rg_tier tier = rg_rule_tier(r, &pat);
        enum rg_match m = rg_pattern_match(pat, path, name, dir);
        if (m != RG_MATCH_NONE)
            last = m == RG_MATCH_EXCLUDED ? tier : RG_TIER_NONE;
    }
    return last;
}

static bool in_ignored_dir(const char *list, size_t len, const char *root, const char *abs)
{
    char scope;
    for (const char *r = rg_ignore_next(list, len, NULL, &scope); r;
         r = rg_ignore_next(list, len, r, &scope))
        if (scope == RG_IGN_ABSOLUTE && rg_path_under(abs, r) && !rg_path_under(root, r))
            return true;
    return false;
}

/* abs past root and the slashes after it. */
static const char *past_root(const char *root, const char *abs)
{
    const char *rel = abs + strlen(root);
    while (*rel == '/')
        rel++;
    return rel;
}

/* The same, or NULL when nothing is left, or too much to match. */
static const char *rel_of(const char *root, const char *abs)
{
    const char *rel = past_root(root, abs);
    size_t n = strlen(rel);
    return n == 0 || n >= PATH_MAX ? NULL : rel;
}

enum rg_tier rg_ignore_dirs_tier(const char *list, size_t len, const char *root,
                                 unsigned root_index, const char *abs)
{
    const char *rel = past_root(root, abs), *last = strrchr(rel, '/');
    size_t n = last ? (size_t)(last - rel) : 0;
    if (!list || len == 0 || n == 0 || n >= PATH_MAX)
        return RG_TIER_NONE;
    char path[PATH_MAX];
    memcpy(path, rel, n);
    path[n] = '\0';
    /* Walk down from the root: a rule that matches a directory decides for
     * everything below it, as an ignored directory does in git. */
    for (char *name = path;;) {
        char *slash = strchr(name, '/');
        if (slash)
            *slash = '\0';
        enum rg_tier t = rules_tier(list, len, root_index, path, name, true);
        if (!slash || t != RG_TIER_NONE)
            return t;
        *slash = '/';
        name = slash + 1;
    }
}

enum rg_tier rg_ignore_file_tier(const char *list, size_t len, const char *root,
                                 unsigned root_index, const char *abs, enum rg_tier dirs)
{
    if (!list || len == 0)
        return RG_TIER_NONE;
    if (in_ignored_dir(list, len, root, abs))
        return RG_TIER_FREE;
    const char *rel = rel_of(root, abs);
    if (dirs != RG_TIER_NONE || !rel)
        return rel ? dirs : RG_TIER_NONE;
    const char *slash = strrchr(rel, '/');
    return rules_tier(list, len, root_index, rel, slash ? slash + 1 : rel, false);
}

enum rg_tier rg_ignore_tier(const char *list, size_t len, const char *root, unsigned root_index,
                            const char *abs)
{
    return rg_ignore_file_tier(list, len, root, root_index, abs,
                               rg_ignore_dirs_tier(list, len, root, root_index, abs));
}

bool rg_ignored(const char *list, size_t len, const char *root, unsigned root_index,
                const char *abs)
{
    return rg_ignore_tier(list, len, root, root_index, abs) == RG_TIER_FREE;
}
