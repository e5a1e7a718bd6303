/* A session's default root: the top of the git work tree the command
 * starts in, found as git finds it (core/gitroot.h) but without running git,
 * a fork and an exec at every session's start. A session started in
 * repo/sub then guards, and journals, what `git reset --hard` or `git
 * checkout -- .` change in all of repo/. Shared by readguard run, env and
 * the Claude Code hook, by a preloaded process that starts a session, and
 * by undo --all, whose scope is the project a session there guarded. */
#ifndef RG_OS_GITROOT_H
#define RG_OS_GITROOT_H

#include <stdbool.h>
#include <stddef.h>

/* The default root for a session started in cwd (absolute, resolved), into
 * out (cap >= PATH_MAX): GIT_WORK_TREE when it holds cwd; else the top of
 * the work tree holding cwd, the nearest directory up with a .git
 * directory or gitfile: not across a file system's boundary unless
 * GIT_DISCOVERY_ACROSS_FILESYSTEM is true, nor into a directory of
 * GIT_CEILING_DIRECTORIES, and none inside a repository's own directory
 * or with GIT_DIR set (git's work tree is then cwd); else cwd. cwd too where
 * that top is "/", $HOME or above it. True when out is wider than cwd. */
bool rg_default_root(const char *cwd, char *out, size_t cap);

#endif
