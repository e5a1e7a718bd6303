#include "core/gitignore.h"
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "core/ignore.h"
/* Does list apply to rel? Its base must be a directory above rel. */
static const char *below_base(const struct rg_exclude_list *l, const char *rel)
{
    size_t n = l->base_len;
    if (n == 0)
        return rel;
    return strncmp(rel, l->base, n) == 0 && rel[n] == '/' ? rel + n + 1 : NULL;
}

/* The last pattern of one list that matches path (relative to its base). */
static enum rg_match list_match(const struct rg_exclude_list *l, const char *path, bool dir)
{
    enum rg_match last = RG_MATCH_NONE;
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    char pat[PATH_MAX];
    for (const char *p = l->text, *end = l->text + l->len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = rg_ignore_clean(p, (size_t)((nl ? nl : end) - p));
        if (n > 0 && n < sizeof pat && !memchr(p, '\0', n)) {
            memcpy(pat, p, n);
            pat[n] = '\0';
            enum rg_match m = rg_pattern_match(pat, path, name, dir);
            if (m != RG_MATCH_NONE)
                last = m;
        }
        p = nl ? nl + 1 : end;
    }
    return last;
}

static bool excluded_here(const struct rg_exclude_list *lists, size_t n, const char *rel, bool dir)
{
    for (size_t i = n; i-- > 0;) {
        const char *path = below_base(&lists[i], rel);
        enum rg_match m = path ? list_match(&lists[i], path, dir) : RG_MATCH_NONE;
        if (m != RG_MATCH_NONE)
            return m == RG_MATCH_EXCLUDED;
    }
    return false;
}

bool rg_git_excluded(const struct rg_exclude_list *lists, size_t n, const char *rel)
{
    char path[PATH_MAX];
    size_t len = strlen(rel);
    if (len == 0 || len >= sizeof path)
        return false;
    memcpy(path, rel, len + 1);
    for (char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        bool hidden = excluded_here(lists, n, path, true);
        *slash = '/';
        if (hidden)
            return true;
    }
    return excluded_here(lists, n, path, false);
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* A section header: is it [core] (no subsection)? */
static bool core_section(const char *p, const char *end)
{
    p = skip_blanks(p + 1, end);
    const char *w = p;
    while (p < end && *p != ']' && *p != ' ' && *p != '\t' && *p != '"')
        p++;
    return p - w == 4 && strncasecmp(w, "core", 4) == 0 && skip_blanks(p, end) < end &&
           *skip_blanks(p, end) == ']';
}

/* A value: quotes removed, a comment outside them dropped, trailing blanks
 * trimmed, \" \\ and \t unescaped. */
static bool value_of(const char *p, const char *end, char *out, size_t cap)
{
    size_t n = 0, keep = 0;
    bool quoted = false;
    for (p = skip_blanks(p, end); p < end; p++) {
        char ch = *p;
        if (ch == '"') {
            quoted = !quoted;
            keep = n;
            continue;
        }
        if (!quoted && (ch == '#' || ch == ';'))
            break;
        if (ch == '\\' && p + 1 < end) {
            ch = *++p;
            if (ch == 't')
                ch = '\t';
            else if (ch == 'n')
                ch = '\n';
        } else if (!quoted && (ch == ' ' || ch == '\t')) {
            if (n + 1 >= cap)
                return false;
            out[n++] = ch;
            continue;
        }
        if (n + 1 >= cap)
            return false;
        out[n++] = ch;
        keep = n;
    }
    out[keep] = '\0';
    return keep > 0;
}

bool rg_gitconfig_excludes(const char *text, size_t len, char *out, size_t cap)
{
    bool in_core = false, found = false;
    char value[PATH_MAX];
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end, *q = skip_blanks(p, eol);
        if (q < eol && *q == '[') {
            in_core = core_section(q, eol);
        } else if (in_core && (size_t)(eol - q) > 12 && strncasecmp(q, "excludesfile", 12) == 0) {
            const char *eq = skip_blanks(q + 12, eol);
            if (eq < eol && *eq == '=' && value_of(eq + 1, eol, value, sizeof value) &&
                strlen(value) < cap) {
                memcpy(out, value, strlen(value) + 1);
                found = true;
            }
        }
        p = nl ? nl + 1 : end;
    }
    return found;
}
