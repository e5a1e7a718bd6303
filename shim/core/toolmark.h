/* How a project's tools mark what they own, told from a file's first bytes:
 * a directory marked by a file in it (a cache tag, a Python virtual
 * environment's configuration, a CMake build tree's cache), and an SQLite database with the files
 * its library keeps beside it. Outside a git work tree no ignore rule says these are the tools',
 * and they are what a second session rewrites first (readguard(1), IGNORE RULES). Pure: works on
 * bytes the caller read. */
#ifndef RG_TOOLMARK_H
#define RG_TOOLMARK_H

#include <stdbool.h>
#include <stddef.h>

enum rg_dirmark_kind { RG_DIRMARK_CACHEDIR, RG_DIRMARK_PYVENV, RG_DIRMARK_CMAKE };

/* A file that marks its directory, and everything below, as a tool's. No
 * pointer in it: each would be a relocation in every process (t0020). */
struct rg_dirmark {
    char name[16];             /* the file's name, after its directory's slash */
    unsigned short head;       /* how many of its first bytes tell */
    enum rg_dirmark_kind kind; /* which of the tests below they pass */
    /* A name that, beside the marker, says the directory holds sources as
     * well (an in-source build): the marker marks nothing then. */
    char unless[16];
};

/* Every directory marker, written once here. */
extern const struct rg_dirmark rg_dirmarks[];
extern const size_t rg_ndirmarks;

/* The most bytes any marker reads. */
#define RG_DIRMARK_HEAD_MAX 512

/* Do n first bytes of m's file (n up to m->head) say what m says? */
bool rg_dirmark_says(const struct rg_dirmark *m, const char *head, size_t n);

/* The Cache Directory Tagging Specification (https://bford.info/cachedir/):
 * CACHEDIR.TAG begins with its 43-byte signature (pytest, cargo). */
bool rg_cachedir_signed(const char *head, size_t n);

/* A virtual environment's pyvenv.cfg (python3 -m venv, virtualenv, uv):
 * a text of "key = value" lines, one of which has the key "home", as
 * CPython reads it (the key case-insensitive, blanks around it). All write
 * it first; a NUL byte says it is no text. */
bool rg_pyvenv_configures(const char *head, size_t n);

/* A CMake build tree's CMakeCache.txt: cmake writes this line first. */
bool rg_cmake_cache(const char *head, size_t n);

/* The bytes an SQLite database begins with: "SQLite format 3" and a NUL. */
#define RG_SQLITE_HEAD 16
bool rg_sqlite_header(const char *head, size_t n);

/* When path names a file SQLite keeps beside the database NAME (NAME-wal,
 * NAME-shm, NAME-journal), the length of NAME; else 0. NAME's last
 * component is never empty. */
size_t rg_sqlite_companion(const char *path);

#endif
