#include "core/ignore.h"
#include <limits.h>
#include <string.h>

#include "core/text.h"
#include "core/wildmatch.h"
/* One rule of a list, its length known: every write that would be refused
 * matches the file's name against every rule, so each is scanned once. */
struct rule {
    char scope;
    const char *text;
    size_t len;
};

/* The rule at *at (as rg_ignore_next finds it), and *at moved past it. */
static bool next_rule(const char **at, const char *end, struct rule *r)
{
    const char *p = *at;
    const char *nul = p + 1 < end ? memchr(p + 1, '\0', (size_t)(end - p - 1)) : NULL;
    if (!nul)
        return false;
    *r = (struct rule){p[0], p + 1, (size_t)(nul - p - 1)};
    *at = nul + 1;
    return true;
}

static const struct {
    char word[8]; /* not a pointer: no relocation at load */
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

/* rg_pattern_match of pat, n bytes long. */
static enum rg_match match_n(const char *pat, size_t n, const char *path, const char *name,
                             bool dir)
{
    bool negated = pat[0] == '!';
    char buf[PATH_MAX];
    n -= negated;
    pat += negated;
    bool dir_only = n > 0 && pat[n - 1] == '/';
    /* Most built-in rules name directories: a file is done with them here. */
    if (n >= sizeof buf || (dir_only && !dir))
        return RG_MATCH_NONE;
    /* Only a directory's rule loses its '/' to a copy: every other is
     * matched where it lies. */
    if (dir_only) {
        memcpy(buf, pat, --n);
        buf[n] = '\0';
        pat = buf;
    }
    if (n == 0)
        return RG_MATCH_NONE;
    int m = memchr(pat, '/', n) ? rg_wildmatch_bounded(pat[0] == '/' ? pat + 1 : pat, path, true)
                                : rg_wildmatch_bounded(pat, name, true);
    /* A rule too costly to decide fails closed: it neither ignores a path
     * nor keeps one ignored, so the path stays guarded. */
    if (m == RG_WM_TOO_COSTLY)
        return negated ? RG_MATCH_INCLUDED : RG_MATCH_NONE;
    return m == RG_WM_NOMATCH ? RG_MATCH_NONE : negated ? RG_MATCH_INCLUDED : RG_MATCH_EXCLUDED;
}

enum rg_match rg_pattern_match(const char *pat, const char *path, const char *name, bool dir)
{
    return match_n(pat, strlen(pat), path, name, dir);
}

static bool applies(char scope, unsigned root_index)
{
    return scope == RG_IGN_EVERY_ROOT || (unsigned char)scope == RG_IGN_ROOT0 + root_index;
}

/* rg_path_under(path, dir), dir's length known. */
static bool under_n(const char *path, const char *dir, size_t n)
{
    if (n == 1 && dir[0] == '/')
        return path[0] == '/';
    /* Two bytes tell most absolute rules ("/proc", "/tmp") from a path
     * before a call to strncmp: a file's pass asks each of them. */
    if (n > 1 && (path[0] != dir[0] || path[1] != dir[1]))
        return false;
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* An absolute rule frees abs if it holds abs but not the root. */
static bool frees(const struct rule *r, const char *root, const char *abs)
{
    return under_n(abs, r->text, r->len) && !under_n(root, r->text, r->len);
}

/* A file, whose absolute rules are looked at in the same pass as its name's.
 * Those no longer than dir_len, its directory's length, were looked at for
 * the directory already (rg_ignore_dir_freed): none of them freed it. */
struct file_at {
    const char *root, *abs;
    size_t dir_len;
};

/* The last rule that matches decides; a '!' rule leaves the path to git.
 * file: an absolute rule that frees it (a file's pass only) decides first. */
static enum rg_tier rules_tier(const char *list, size_t len, unsigned root_index, const char *path,
                               const char *name, bool dir, const struct file_at *file)
{
    enum rg_tier last = RG_TIER_NONE;
    struct rule r;
    for (const char *at = list; next_rule(&at, list + len, &r);) {
        if (r.scope == RG_IGN_ABSOLUTE) {
            if (file && frees(&r, file->root, file->abs))
                return RG_TIER_FREE;
            continue;
        }
        /* A directory's rule ("build/", "guard dist/") never matches a
         * file: most built-in rules are such. */
        if (!applies(r.scope, root_index) || (!dir && r.len > 0 && r.text[r.len - 1] == '/'))
            continue;
        const char *pat;
        enum rg_tier tier = rg_rule_tier(r.text, &pat);
        enum rg_match m = match_n(pat, r.len - (size_t)(pat - r.text), path, name, dir);
        if (m != RG_MATCH_NONE)
            last = m == RG_MATCH_EXCLUDED ? tier : RG_TIER_NONE;
    }
    return last;
}

static bool in_ignored_dir(const char *list, size_t len, const char *root, const char *abs)
{
    struct rule r;
    for (const char *at = list; next_rule(&at, list + len, &r);)
        if (r.scope == RG_IGN_ABSOLUTE && frees(&r, root, abs))
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
        enum rg_tier t = rules_tier(list, len, root_index, path, name, true, NULL);
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
    const char *rel = rel_of(root, abs);
    if (dirs != RG_TIER_NONE || !rel)
        return in_ignored_dir(list, len, root, abs) ? RG_TIER_FREE : rel ? dirs : RG_TIER_NONE;
    const char *slash = strrchr(rel, '/');
    struct file_at file = {root, abs, 0};
    return rules_tier(list, len, root_index, rel, slash ? slash + 1 : rel, false, &file);
}

/* What a compiled rule is to a file. */
enum {
    RG_RULE_ABSOLUTE,    /* frees what lies at or below it (and not the root) */
    RG_RULE_NEVER,       /* never matches a file: a directory's rule, or empty, or too long */
    RG_RULE_NAME,        /* matched against the file's name */
    RG_RULE_PATH,        /* has a '/': matched against the path from the root */
    RG_RULE_NEGATED = 4, /* added to NAME or PATH: a '!' rule */
    RG_RULE_SUFFIX = 8,  /* added to NAME: '*' then a literal, pat the literal */
};

/* "*.o": as rg_wildmatch_bounded's own shortcut decides it, but its scan
 * of the pattern and the name's length are done once, not per rule and
 * file (five built-in rules, each file git checkout replaces). */
static bool star_literal(const char *pat, size_t n)
{
    if (n == 0 || pat[0] != '*')
        return false;
    for (size_t i = 1; i < n; i++)
        if (pat[i] == '*' || pat[i] == '?' || pat[i] == '[' || pat[i] == '\\')
            return false;
    return true;
}

/* What match_n does for a file, worked out once: kind, and pattern. */
static struct rg_ignore_rule compile_rule(const struct rule *r)
{
    struct rg_ignore_rule c = {r->text, (unsigned short)0, r->scope, RG_TIER_FREE, RG_RULE_NEVER};
    if (r->scope == RG_IGN_ABSOLUTE) {
        c.len = (unsigned short)r->len, c.kind = RG_RULE_ABSOLUTE;
        return c;
    }
    if (r->len > 0 && r->text[r->len - 1] == '/')
        return c;
    const char *pat;
    c.tier = (unsigned char)rg_rule_tier(r->text, &pat);
    size_t n = r->len - (size_t)(pat - r->text);
    bool negated = pat[0] == '!';
    n -= negated;
    pat += negated;
    if (n >= PATH_MAX || n == 0 || pat[n - 1] == '/')
        return c;
    bool path = memchr(pat, '/', n) != NULL, suffix = !path && star_literal(pat, n);
    c.pat = path && pat[0] == '/' ? pat + 1 : suffix ? pat + 1 : pat;
    c.len = suffix ? (unsigned short)(n - 1) : 0;
    c.kind = (unsigned char)((path ? RG_RULE_PATH : RG_RULE_NAME) |
                             (negated ? RG_RULE_NEGATED : 0) | (suffix ? RG_RULE_SUFFIX : 0));
    return c;
}

bool rg_ignore_compile(const char *list, size_t len, struct rg_ignore_compiled *out)
{
    out->list = list, out->len = len, out->count = 0;
    struct rule r;
    for (const char *at = list; list && next_rule(&at, list + len, &r);) {
        if (r.len > USHRT_MAX)
            return false;
        /* Left out, a rule that never matches a file is not passed over
         * for every file: most built-in rules are directories'. */
        struct rg_ignore_rule c = compile_rule(&r);
        if (c.kind == RG_RULE_NEVER)
            continue;
        if (out->count == RG_IGNORE_COMPILED_MAX)
            return false;
        out->r[out->count++] = c;
    }
    return true;
}

/* Does name (n bytes) end with lit? The last byte first: it tells most
 * names from each built-in suffix without a call. */
static bool ends_with(const char *name, size_t n, const char *lit, size_t len)
{
    return len == 0 ||
           (n >= len && name[n - 1] == lit[len - 1] && memcmp(name + n - len, lit, len) == 0);
}

/* rules_tier's file pass over compiled rules: the same answers. */
static enum rg_tier compiled_tier(const struct rg_ignore_compiled *cr, unsigned root_index,
                                  const char *path, const char *name, const struct file_at *file)
{
    enum rg_tier last = RG_TIER_NONE;
    size_t name_len = strlen(name);
    for (const struct rg_ignore_rule *r = cr->r; r < cr->r + cr->count; r++) {
        if (r->kind == RG_RULE_ABSOLUTE) {
            if (r->len > file->dir_len && under_n(file->abs, r->pat, r->len) &&
                !under_n(file->root, r->pat, r->len))
                return RG_TIER_FREE;
            continue;
        }
        if (!applies(r->scope, root_index))
            continue;
        bool negated = r->kind & RG_RULE_NEGATED;
        int m;
        if (r->kind & RG_RULE_SUFFIX)
            m = ends_with(name, name_len, r->pat, r->len) ? RG_WM_MATCH : RG_WM_NOMATCH;
        else
            m = rg_wildmatch_bounded(
                r->pat, (r->kind & ~RG_RULE_NEGATED) == RG_RULE_PATH ? path : name, true);
        /* As match_n: a rule too costly to decide fails closed. */
        if (m == RG_WM_TOO_COSTLY ? negated : m != RG_WM_NOMATCH)
            last = negated ? RG_TIER_NONE : (enum rg_tier)r->tier;
    }
    return last;
}

/* A rule no longer than the directory abs[0, n) holds abs exactly when it
 * holds the directory: abs[len] is the directory's own byte, or the '/'
 * after it. */
bool rg_ignore_dir_freed(const struct rg_ignore_compiled *cr, const char *root, const char *abs,
                         size_t n)
{
    for (const struct rg_ignore_rule *r = cr->r; r < cr->r + cr->count; r++)
        if (r->kind == RG_RULE_ABSOLUTE && r->len <= n && under_n(abs, r->pat, r->len) &&
            !under_n(root, r->pat, r->len))
            return true;
    return false;
}

enum rg_tier rg_ignore_file_tier_compiled_at(const struct rg_ignore_compiled *cr, const char *root,
                                             unsigned root_index, const char *abs,
                                             enum rg_tier dirs, size_t n, bool freed)
{
    if (!cr->list || cr->len == 0)
        return RG_TIER_NONE;
    const char *rel = rel_of(root, abs);
    if (dirs != RG_TIER_NONE || !rel)
        return rg_ignore_file_tier(cr->list, cr->len, root, root_index, abs, dirs);
    if (freed)
        return RG_TIER_FREE;
    const char *slash = strrchr(rel, '/');
    struct file_at file = {root, abs, n};
    return compiled_tier(cr, root_index, rel, slash ? slash + 1 : rel, &file);
}

enum rg_tier rg_ignore_file_tier_compiled(const struct rg_ignore_compiled *cr, const char *root,
                                          unsigned root_index, const char *abs, enum rg_tier dirs)
{
    return rg_ignore_file_tier_compiled_at(cr, root, root_index, abs, dirs, 0, false);
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
