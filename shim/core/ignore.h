/* Ignore rules: which tier a path under a root is in. Patterns follow
 * gitignore(5): last match wins, '!' re-includes, a trailing '/' matches
 * only directories, a pattern with a slash is anchored at the root, one
 * without matches a name at any depth, and a rule that matches a directory
 * decides for everything below it.
 *
 * A rule may start with a tier keyword: "guard PATTERN", "journal PATTERN"
 * or "free PATTERN"; a plain line (and every built-in rule) means "free".
 * A '!' line takes the paths it matches back out of every tier, so that
 * git's rules (gitignore.h) decide them. "\guard x" is the pattern
 * "guard x", as in git.
 *
 * The rules of a session live in its table header as one packed list, so
 * every process applies the same ones: each rule is a scope byte, its text
 * (keyword included) and a NUL. This file builds that list and answers
 * from it; it is pure. */
#ifndef RG_IGNORE_H
#define RG_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

/* Scope bytes. A rule read from root i's .readguardignore has scope
 * RG_IGN_ROOT0 + i and applies under that root only. */
#define RG_IGN_EVERY_ROOT '*' /* a gitignore pattern, applied under every root */
#define RG_IGN_ABSOLUTE '/'   /* an absolute directory (or file), not a pattern */
#define RG_IGN_ROOT0 'A'
#define RG_IGN_MAX_ROOTS 64

#define RG_IGNORE_FILE ".readguardignore"

/* The built-in rules, documented in the README, each list ending with "".
 * Arrays of characters, not of pointers: each pointer in a table is a
 * relocation, which ld.so carries out in every process at load (some 13
 * instructions each). */
#define RG_DEFAULT_RULE_MAX 16
extern const char rg_default_ignores[][RG_DEFAULT_RULE_MAX];
extern const char rg_default_ignored_dirs[][RG_DEFAULT_RULE_MAX];

/* The three answers for a write (readguard(1), TIERS). NONE: no rule of
 * readguard's decides, so git's ignore rules do (JOURNAL if git ignores the
 * path, else GUARD). Ordered by how much they protect. */
enum rg_tier { RG_TIER_FREE, RG_TIER_JOURNAL, RG_TIER_NONE, RG_TIER_GUARD };

/* The tier a rule puts the paths it matches in; *pattern receives the
 * rule past its keyword. */
enum rg_tier rg_rule_tier(const char *rule, const char **pattern);

enum rg_match { RG_MATCH_NONE, RG_MATCH_EXCLUDED, RG_MATCH_INCLUDED };

/* One cleaned gitignore pattern against a path relative to the pattern's
 * base: path is the whole relative path, name its last component, dir
 * whether it is a directory. A pattern too costly to match fails closed:
 * it neither excludes a path nor re-includes one. */
enum rg_match rg_pattern_match(const char *pat, const char *path, const char *name, bool dir);

/* The length of a gitignore line once cleaned as git does (a trailing CR
 * and unescaped trailing spaces dropped); 0 for a blank line or comment. */
size_t rg_ignore_clean(const char *line, size_t n);

struct rg_ignore_list {
    char *buf;
    size_t cap, len;
    unsigned count;
};

/* Appends one rule. A gitignore line is cleaned first (trailing unescaped
 * spaces dropped); blank lines and '#' comments add nothing and succeed.
 * False when the list is full. */
bool rg_ignore_add(struct rg_ignore_list *l, char scope, const char *rule);

/* Appends every line of a .readguardignore file's contents. */
bool rg_ignore_add_lines(struct rg_ignore_list *l, char scope, const char *text, size_t len);

/* The tier of abs (absolute, normalised, a non-directory) under root, the
 * root_index-th root of the session, by readguard's rules alone. abs must
 * be at or below root. */
enum rg_tier rg_ignore_tier(const char *list, size_t len, const char *root, unsigned root_index,
                            const char *abs);

/* rg_ignore_tier in two steps, for a caller that keeps the first one's
 * answer per directory (guard/tier/tiercache.h): what the directories between
 * root and abs decide (RG_TIER_NONE: nothing), which depends on abs's
 * directory alone; then abs's tier, given that answer. */
enum rg_tier rg_ignore_dirs_tier(const char *list, size_t len, const char *root,
                                 unsigned root_index, const char *abs);
enum rg_tier rg_ignore_file_tier(const char *list, size_t len, const char *root,
                                 unsigned root_index, const char *abs, enum rg_tier dirs);

/* A list's rules as a file's pass reads them, each taken apart once: the
 * pass runs for every file a command writes or removes (git checkout), and
 * finding each rule's end, keyword, '!' and '/' again per file was most of
 * it. Rules that never match a file (a directory's) are left out; lists
 * of more than RG_IGNORE_COMPILED_MAX others are not compiled. */
#define RG_IGNORE_COMPILED_MAX 64
struct rg_ignore_rule {
    const char *pat;    /* what is matched: past keyword, '!' and a leading '/' */
    unsigned short len; /* an absolute rule's, or a suffix rule's literal's */
    char scope;
    unsigned char tier;
    unsigned char kind; /* RG_RULE_*, ignore.c */
};
struct rg_ignore_compiled {
    const char *list; /* the list compiled, and its length */
    size_t len;
    unsigned count;
    struct rg_ignore_rule r[RG_IGNORE_COMPILED_MAX];
};

/* Compiles list into *out; false (and *out unusable) when it has too many
 * rules. Pure: a caller keeps the result (guard/tier/tiercache.h). */
bool rg_ignore_compile(const char *list, size_t len, struct rg_ignore_compiled *out);

/* rg_ignore_file_tier, from the compiled rules of the same list. */
enum rg_tier rg_ignore_file_tier_compiled(const struct rg_ignore_compiled *cr, const char *root,
                                          unsigned root_index, const char *abs, enum rg_tier dirs);

/* Does an absolute rule free every file of abs's directory, abs[0, n),
 * under root? It depends on the directory alone, so a caller that writes
 * a directory's files one after another asks once (guard/tier/tiercache.h):
 * the absolute rules (/dev, /proc, /tmp, ...) were a third of a file's
 * pass, more for a tree under one of them. */
bool rg_ignore_dir_freed(const struct rg_ignore_compiled *cr, const char *root, const char *abs,
                         size_t n);

/* rg_ignore_file_tier_compiled, given rg_ignore_dir_freed's answer for
 * abs's directory abs[0, n): only the absolute rules longer than it (which
 * may name abs itself) are looked at again. */
enum rg_tier rg_ignore_file_tier_compiled_at(const struct rg_ignore_compiled *cr, const char *root,
                                             unsigned root_index, const char *abs,
                                             enum rg_tier dirs, size_t n, bool freed);

/* Is abs free under root (rg_ignore_tier says RG_TIER_FREE)? */
bool rg_ignored(const char *list, size_t len, const char *root, unsigned root_index,
                const char *abs);

/* Iterates the rules: scope and text of each, NULL after the last. */
const char *rg_ignore_next(const char *list, size_t len, const char *prev, char *scope);

#endif
