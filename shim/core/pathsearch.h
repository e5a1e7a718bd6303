/* glibc's execvpe, the part that is a function of its arguments: the names
 * a PATH search tries and in what order, which failures let it go on, and
 * the argv that hands a file with no #! line to /bin/sh. The exec hooks
 * search PATH themselves rather than call libc's execvpe: reaching that
 * meant a dlsym, which takes the loader's lock, and a child forked while
 * another thread held it (a dlopen running constructors) waited forever. */
#ifndef RG_PATHSEARCH_H
#define RG_PATHSEARCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* glibc's confstr(_CS_PATH): the search path when PATH is unset. */
#define RG_PATH_DEFAULT "/bin:/usr/bin"
/* The shell a file with no #! line runs in (glibc's _PATH_BSHELL). */
#define RG_SCRIPT_SHELL "/bin/sh"
/* Room for any name rg_search_next writes: an element (shorter than
 * PATH_MAX), '/', a file of up to NAME_MAX bytes and its NUL. */
#define RG_SEARCH_BUF (PATH_MAX + NAME_MAX + 2)

struct rg_search {
    const char *next; /* the element to try next; NULL when all were tried */
    const char *file;
    size_t file_len; /* with its NUL */
    size_t path_len; /* strnlen(PATH, PATH_MAX - 1) + 1: no element may reach it */
};

/* Starts a search for file, which is not empty and has no '/', along path
 * (NULL: PATH is unset). 0, or ENAMETOOLONG when file is longer than
 * NAME_MAX (glibc refuses it before trying anything). */
int rg_search_start(struct rg_search *s, const char *path, const char *file);

/* Writes the next name to try into buf (RG_SEARCH_BUF bytes): element/file,
 * or file alone for an empty element (the working directory). false when
 * every element was tried. */
bool rg_search_next(struct rg_search *s, char *buf);

/* Whether an exec that failed with err lets the search go on to the next
 * element: the file is missing or not executable by us. EACCES goes on
 * too, but is what the search fails with if nothing else is found. */
bool rg_search_goes_on(int err);

/* The slots the shell's argv needs for argv (its NULL included), or 0 when
 * argv has INT_MAX - 1 entries or more (glibc fails with E2BIG). */
size_t rg_script_slots(char *const argv[]);

/* Fills out (rg_script_slots(argv) slots): the shell, then file, then
 * argv's arguments after argv[0], then NULL. */
void rg_script_argv(const char *file, char *const argv[], char **out);

#endif
