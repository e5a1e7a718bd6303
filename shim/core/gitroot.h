/* The path logic of finding a git work tree's top as git does (setup.c's
 * discovery), without running git: which directories the walk up may look
 * at (GIT_CEILING_DIRECTORIES), what a gitfile says, how git reads a
 * boolean variable, and which tops are too wide to be a session's default
 * root. The walk itself, which looks at the file system, is os/gitroot. */
#ifndef RG_CORE_GITROOT_H
#define RG_CORE_GITROOT_H

#include <stdbool.h>
#include <stddef.h>

/* The length of ceil (absolute, normalised; a trailing slash not counted)
 * when it is a proper ancestor of dir (absolute, normalised), else -1: git's
 * longest_ancestor_length for one entry. The walk up from dir never looks at
 * a directory this long or shorter. */
long rg_git_ceiling_len(const char *dir, const char *ceil);

/* May the walk up look at the parent that ends where dir's byte at cut is
 * the slash (0: the parent is "/"), below a ceiling of ceiling_len bytes
 * (-1: none)? */
bool rg_git_may_climb(size_t cut, long ceiling_len);

/* Do the first n bytes of a file named .git make it a gitfile, the link a
 * worktree or a submodule keeps to its repository ("gitdir: PATH")? */
bool rg_gitfile_says_gitdir(const char *buf, size_t n);

/* The path a line of git's own files names (a gitfile's after "gitdir: ",
 * a worktree's commondir): its first n bytes less the line ends git trims,
 * relative to base (absolute) unless absolute, lexically normalised, into
 * out. False when empty or it does not fit. */
bool rg_git_line_path(const char *buf, size_t n, const char *base, char *out, size_t cap);

/* Do the first n bytes of a HEAD file say what git's validate_headref
 * wants: "ref:" and, past blanks, "refs/", or an object id (40 or 64 hex
 * digits)? Else git passes the directory by as no repository. */
bool rg_git_head_valid(const char *buf, size_t n);

/* git's boolean environment variables (git_env_bool): true, yes, on or a
 * non-zero number; unset, empty or anything else is false. */
bool rg_git_env_true(const char *value);

/* Is path (absolute, normalised) inside a repository's own directory, a
 * component named .git? git finds no work tree there. */
bool rg_path_in_gitdir(const char *path);

/* Would top (absolute, normalised) guard far more than a project: "/", or
 * home (the user's $HOME, lexically normalised here; NULL or relative when
 * unknown) or a directory above it? A dotfiles repository in $HOME would
 * otherwise make every session guard the whole home. */
bool rg_git_top_too_wide(const char *top, const char *home);

#endif
