/* Is a path in a directory its tools tagged as a cache? The Cache
 * Directory Tagging Specification (https://bford.info/cachedir/): a file
 * CACHEDIR.TAG whose bytes begin with its signature marks its directory
 * and everything below as a cache (pytest's .pytest_cache, cargo's
 * target/). Outside a git work tree no ignore rule says so, and these are
 * what a second session rewrites first; they are journaled (readguard(1),
 * IGNORE RULES), never free: a cache may be the only copy of something.
 *
 * Asked only for a write that would otherwise be refused. The answer is
 * the file system's as it is now (a tool writes its tag when it makes the
 * cache), so nothing is kept between questions. */
#ifndef RG_CACHEDIR_H
#define RG_CACHEDIR_H

#include <stdbool.h>

/* abs: absolute, normalised, under root (a root of the session). True when
 * abs's directory, or one above it up to and including root, holds a
 * regular CACHEDIR.TAG (not a symbolic link) that begins with the
 * signature. A tag above the root says nothing of the root's files. */
bool rg_cachedir_tagged(const char *abs, const char *root);

#endif
