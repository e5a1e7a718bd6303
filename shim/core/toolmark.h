/* How a project's tools mark what they own, told from a file's first bytes:
 * a directory marked by a file in it (a cache tag, a Python virtual
 * environment's configuration, a CMake build tree's cache), an SQLite
 * database with the files its library keeps beside it, and what autoconf
 * and its configure rewrite each time they run. Outside a git
 * work tree no ignore rule says these are the tools', and they are what a
 * second session rewrites first (readguard(1), IGNORE RULES). Pure: works
 * on bytes the caller read. */
#ifndef RG_TOOLMARK_H
#define RG_TOOLMARK_H

#include <stdbool.h>
#include <stddef.h>

enum rg_dirmark_kind {
    RG_DIRMARK_CACHEDIR,
    RG_DIRMARK_PYVENV,
    RG_DIRMARK_CMAKE,
    RG_DIRMARK_EGGINFO,
    RG_DIRMARK_GITIGNORE_ALL,
    RG_DIRMARK_SPHINX,
    RG_DIRMARK_CMAKE_INSTALL,
    RG_DIRMARK_ISTANBUL,
    RG_DIRMARK_MODULE_BUILD,
};

/* A file that marks its directory, and everything below, as a tool's. No
 * pointer in it: each would be a relocation in every process (t0020). */
struct rg_dirmark {
    char name[24];             /* the file's name, after its directory's slash */
    unsigned short head;       /* how many of its first bytes tell */
    enum rg_dirmark_kind kind; /* which of the tests below they pass */
    /* A name that, beside the marker, says the directory holds sources as
     * well (an in-source build): the marker marks nothing then. */
    char unless[16];
    /* What the directory's own name ends with, or "": a name the tool
     * gives only the directory it writes (setuptools' NAME.egg-info), where
     * the marker alone also stands beside sources (an unpacked sdist's
     * PKG-INFO). One that starts with a slash is a whole name. */
    char dir_suffix[24];
    /* How many directories above the marked one the marker is: an
     * in-source CMake build's cache marks CMakeFiles/ beside it, never the
     * sources around it. */
    unsigned char up;
};

/* Every directory marker, written once here. */
extern const struct rg_dirmark rg_dirmarks[];
extern const size_t rg_ndirmarks;

/* The most bytes any marker reads. */
#define RG_DIRMARK_HEAD_MAX 512

/* Do n first bytes of m's file (n up to m->head) say what m says? */
bool rg_dirmark_says(const struct rg_dirmark *m, const char *head, size_t n);

/* Does the directory dir[0, n) (no trailing slash) have the name m
 * needs? */
bool rg_dirmark_fits(const struct rg_dirmark *m, const char *dir, size_t n);

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

/* setuptools' NAME.egg-info/PKG-INFO: core metadata, which begins with
 * its version field. */
bool rg_egg_info(const char *head, size_t n);

/* A .gitignore a tool writes into the directory it made, to keep all of
 * it out of git (coverage's htmlcov, pytest's cache, Meson's build
 * directory): a comment first, then "*" as its only rule. n must be the
 * whole file: a rule further on could take a name back ("!keep"). A bare
 * "*" with no comment, as a person writes one, says nothing. */
bool rg_gitignore_all(const char *head, size_t n);

/* A Sphinx html build's .buildinfo: it begins with this line. */
bool rg_sphinx_buildinfo(const char *head, size_t n);

/* The bytes an SQLite database begins with: "SQLite format 3" and a NUL. */
#define RG_SQLITE_HEAD 16
bool rg_sqlite_header(const char *head, size_t n);

/* When path names a file SQLite keeps beside the database NAME (NAME-wal,
 * NAME-shm, NAME-journal), the length of NAME; else 0. NAME's last
 * component is never empty. */
size_t rg_sqlite_companion(const char *path);

/* A wheel that pip wheel or python -m build wrote: a file name of the
 * form NAME-VERSION[-BUILD]-PYTHON-ABI-PLATFORM.whl (PEP 427), and the
 * first bytes of a zip's local file header. pip writes the wheel over
 * where it saved the last one (pip wheel . saves it in the working
 * directory), without reading it. */
#define RG_WHEEL_HEAD 4
bool rg_wheel_name(const char *name);
bool rg_wheel_head(const char *head, size_t n);

/* A Sphinx doctree: a file NAME.doctree holding a pickle (protocol 2 to
 * 5, which begins with the byte 0x80 and the protocol's number). Sphinx
 * writes the doctree of each changed document before it reads any. */
#define RG_PICKLE_HEAD 2
bool rg_doctree_name(const char *name);
bool rg_pickle_head(const char *head, size_t n);

/* A compiled message catalog, NAME.mo or NAME.gmo, that msgfmt writes
 * (by a rename onto it) without reading: GNU's magic number 0x950412de in
 * either byte order. Nobody writes one by hand. */
#define RG_MO_HEAD 4
bool rg_mo_name(const char *name);
bool rg_mo_head(const char *head, size_t n);

/* gcc --coverage's notes, NAME.gcno, which gcc writes over unread at each
 * compile, and its counts, NAME.gcda, which the program it built opens
 * read and write at exit to add to them: each begins with its own name,
 * "gcno" or "gcda", as a 32-bit word in the writer's byte order. Nobody
 * writes one by hand. Does the file name hold what its first n bytes say
 * it is? */
#define RG_GCOV_HEAD 4
bool rg_gcov_data(const char *name, const char *head, size_t n);

/* A JSON compilation database, compile_commands.json, that bear, cmake,
 * meson or compiledb write over (bear by a rename) without reading: an
 * array, empty or of objects whose first key is one the format defines.
 * Whoever wrote it, another run of its tool writes it again. */
bool rg_compdb(const char *name, const char *head, size_t n);

/* The most first bytes an artifact above needs. */
#define RG_ARTIFACT_HEAD RG_WHEEL_HEAD

/* What autoconf and its configure write over, unread, each run: configure
 * itself (autoconf moves it onto configure~), autoheader's config.h.in
 * (moved onto config.h.in~), config.log, config.status, automake's
 * config-header stamps stamp-hN and LT_INIT's libtool script (moved from
 * libtoolT onto it, with no rm first). An in-source build puts them
 * beside the sources, so each marks itself, not its directory. Is name (a
 * last path component) one of them? */
bool rg_configure_output(const char *name);

/* Do the first n bytes of the file name say autoconf or configure wrote
 * it? config.log begins with its two lines of explanation; config.status
 * and configure are scripts ("#!") whose second line is "# Generated by
 * configure." or configure's "# Guess values for system-dependent
 * variables and create Makefiles.", then "# Generated by GNU Autoconf ";
 * libtool is a script whose second line is "# Generated automatically by
 * config.status (" its package (as libtool 2.4.7 writes it);
 * a stamp says "timestamp for " its header; a NAME.in autoheader wrote
 * says so on its first line, a C comment naming NAME.in. */
#define RG_CONFIGURE_HEAD 128
bool rg_configure_wrote(const char *name, const char *head, size_t n);

/* What perl Makefile.PL (ExtUtils::MakeMaker) and perl Build.PL
 * (Module::Build) write over, unread, each run beside the sources:
 * MYMETA.json and MYMETA.yml, the distribution's metadata as CPAN::Meta
 * dumps it, keys sorted, so that the required "abstract" comes first
 * (JSON::PP indents by three blanks). Is the file name one of them, and
 * do its first n bytes begin as CPAN::Meta begins it? */
bool rg_perl_mymeta(const char *name, const char *head, size_t n);

/* What cmake writes over, unread, beside the sources of an in-source
 * build and in each of its subdirectories, where no CMakeCache.txt is:
 * Makefile, build.ninja, cmake_install.cmake and CTestTestfile.cmake,
 * each of which begins with the comment cmake writes first. */
bool rg_cmake_output(const char *name);
bool rg_cmake_wrote(const char *name, const char *head, size_t n);

/* The list cmake's install step writes, install_manifest.txt, over unread
 * at each make install: the absolute paths it installed, one a line. Only
 * with cmake's own cmake_install.cmake beside it (the caller looks). */
bool rg_cmake_manifest(const char *name, const char *head, size_t n);

#endif
