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

/* The same, but says when it gave up. Backtracking over several "**" or
 * '*' is polynomial in the path length with the number of stars as the
 * exponent (git's matcher too): many "**" components with literals between
 * them, against a long path, would hang every process that checks a write
 * (the fuzzer found one that took minutes). So the
 * match is bounded to RG_WILDMATCH_BUDGET steps, far above what real
 * patterns need, and the caller decides what "too costly" means. */
#define RG_WILDMATCH_BUDGET 20000u
enum { RG_WM_NOMATCH = 0, RG_WM_MATCH = 1, RG_WM_TOO_COSTLY = 2 };
int rg_wildmatch_bounded(const char *pattern, const char *text, bool pathname);

#endif
