/* Glob matching with git's semantics (wildmatch): '*', '?', '[...]' with
 * ranges, '!'/'^' negation and [:class:], backslash escapes, and '**' that
 * crosses directories when it stands between slashes or at either end.
 * Written for the ignore rules, which must mean what they mean in a
 * .gitignore; fnmatch(3) has no '**', so it cannot. Pure, no allocation. */
#ifndef RG_WILDMATCH_H
#define RG_WILDMATCH_H

#include <stdbool.h>

/* pathname: '*', '?' and '[...]' never match '/' (git's WM_PATHNAME). */
bool rg_wildmatch(const char *pattern, const char *text, bool pathname);

#endif
