/* Ignore rules: which paths under a root are not guarded. Patterns follow
 * gitignore(5): last match wins, '!' re-includes, a trailing '/' matches
 * only directories, a pattern with a slash is anchored at the root, one
 * without matches a name at any depth, and nothing below an ignored
 * directory can be re-included.
 *
 * The rules of a session live in its table header as one packed list, so
 * every process applies the same ones: each rule is a scope byte, its text
 * and a NUL. This file builds that list and answers from it; it is pure. */
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

/* The built-in rules, documented in the README. */
extern const char *const rg_default_ignores[];
extern const char *const rg_default_ignored_dirs[];

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

/* Is abs (absolute, normalised, a non-directory) ignored under root, the
 * root_index-th root of the session? abs must be at or below root. */
bool rg_ignored(const char *list, size_t len, const char *root, unsigned root_index,
                const char *abs);

/* Iterates the rules: scope and text of each, NULL after the last. */
const char *rg_ignore_next(const char *list, size_t len, const char *prev, char *scope);

#endif
