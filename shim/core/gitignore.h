/* git's own ignore rules, as git applies them (gitignore(5)): the journaled
 * tier holds what they match. The caller (guard/tier/gitrules.c) reads the files;
 * this part only matches, so every case is a unit test.
 *
 * An exclude list is the text of one file with the directory it applies
 * below: core.excludesFile and .git/info/exclude apply from the top of the
 * work tree, a .gitignore from its own directory. Lists come ordered by
 * precedence, lowest first: core.excludesFile, info/exclude, then each
 * .gitignore from the top down. For one path, the list of highest
 * precedence that has a matching pattern decides, by its last matching
 * pattern; and an excluded directory excludes everything below it. */
#ifndef RG_GITIGNORE_H
#define RG_GITIGNORE_H

#include <stdbool.h>
#include <stddef.h>

struct rg_exclude_list {
    const char *base; /* relative to the top, no slash at either end */
    size_t base_len;  /* 0 for the top */
    const char *text; /* the file's contents, not NUL-ended */
    size_t len;
};

/* Does git ignore rel, a path relative to the top of the work tree (not a
 * directory itself)? */
bool rg_git_excluded(const struct rg_exclude_list *lists, size_t n, const char *rel);

/* The value of core.excludesFile in the text of one git config file, if it
 * sets one (the last setting wins). Sections, keys and "true" quoting as
 * git-config(1) has them; include directives are not followed. False when
 * the file does not set it or the value does not fit. */
bool rg_gitconfig_excludes(const char *text, size_t len, char *out, size_t cap);

#endif
