/* Is a path in a directory its tools marked as theirs? A file a tool
 * writes into the directory it makes says so (core/toolmark.h lists them):
 * a CACHEDIR.TAG beginning with the Cache Directory Tagging
 * Specification's signature (pytest's .pytest_cache, cargo's target/), a
 * Python virtual environment's pyvenv.cfg, a CMake build tree's
 * CMakeCache.txt (where no CMakeLists.txt is beside it), setuptools'
 * NAME.egg-info/PKG-INFO, a tool's .gitignore of "*" (coverage's htmlcov).
 * Outside a git work tree no
 * ignore rule says so, and these are what a second session rewrites first;
 * they are journaled (readguard(1), IGNORE RULES), never free: a cache or
 * an environment may be the only copy of something.
 *
 * Asked only for a write that would otherwise be refused. The answer is
 * the file system's as it is now (a tool writes its marker when it makes
 * the directory), so nothing is kept between questions. */
#ifndef RG_DIRMARK_H
#define RG_DIRMARK_H

#include <stdbool.h>

/* abs: absolute, normalised, under root (a root of the session). True when
 * abs's directory, or one above it up to and including root, holds a
 * marker: a regular file (not a symbolic link) of a marker's name whose
 * first bytes say what the marker says. A marker above the root says
 * nothing of the root's files. */
bool rg_dirmark_marked(const char *abs, const char *root);

#endif
