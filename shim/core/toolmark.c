#include "core/toolmark.h"
#include <string.h>

#include "core/reportmark.h"

static const char cachedir_signature[] = "Signature: 8a477f597d28d172789f06886806bc55";
static const char cmake_cache_line[] = "# This is the CMakeCache file.";
static const char sqlite_header[RG_SQLITE_HEAD] = "SQLite format 3";
static const char pkg_info_field[] = "Metadata-Version: ";
static const char sphinx_buildinfo_line[] = "# Sphinx build info version ";
static const char cmake_generated_line[] = "# CMAKE generated file: DO NOT EDIT!\n";
static const char cmake_install_line[] = "# Install script for directory: ";
static const char module_build_params[] = "do{ my $x = [\n";

const struct rg_dirmark rg_dirmarks[] = {
    {"CACHEDIR.TAG", sizeof cachedir_signature - 1, RG_DIRMARK_CACHEDIR, "", "", 0},
    {"pyvenv.cfg", RG_DIRMARK_HEAD_MAX, RG_DIRMARK_PYVENV, "", "", 0},
    /* cmake -B . in the source directory puts its cache beside the
     * project's CMakeLists.txt, and the sources stay guarded. */
    {"CMakeCache.txt", sizeof cmake_cache_line - 1, RG_DIRMARK_CMAKE, "CMakeLists.txt", "", 0},
    /* pip install . and -e . run setuptools' egg_info, which writes the
     * directory's files over unread every time. */
    {"PKG-INFO", sizeof pkg_info_field - 1, RG_DIRMARK_EGGINFO, "", ".egg-info", 0},
    {".gitignore", RG_DIRMARK_HEAD_MAX, RG_DIRMARK_GITIGNORE_ALL, "", "", 0},
    /* sphinx-build writes its html output over unread for every changed
     * document. */
    {".buildinfo", sizeof sphinx_buildinfo_line - 1, RG_DIRMARK_SPHINX, "", "", 0},
    /* An in-source build's cache leaves the sources guarded, but cmake
     * and ctest write their own directories beside it over unread each
     * run. */
    {"CMakeCache.txt", sizeof cmake_cache_line - 1, RG_DIRMARK_CMAKE, "", "/CMakeFiles", 1},
    /* ... and in each subdirectory it generates, where no cache is but
     * the install script is. */
    {"cmake_install.cmake", sizeof cmake_install_line - 1, RG_DIRMARK_CMAKE_INSTALL, "",
     "/CMakeFiles", 1},
    {"CMakeCache.txt", sizeof cmake_cache_line - 1, RG_DIRMARK_CMAKE, "", "/Testing/Temporary", 2},
    /* istanbul's html report (jest --coverage, nyc, c8): its assets and
     * pages are written over unread each run. */
    {"index.html", 160, RG_DIRMARK_ISTANBUL, "", "", 0},
    /* perl Build.PL (Module::Build) writes its state in _build/ over
     * unread each run, as Data::Dumper's code. */
    {"build_params", sizeof module_build_params - 1, RG_DIRMARK_MODULE_BUILD, "", "/_build", 0},
};
const size_t rg_ndirmarks = sizeof rg_dirmarks / sizeof rg_dirmarks[0];

bool rg_dirmark_says(const struct rg_dirmark *m, const char *head, size_t n)
{
    switch (m->kind) {
    case RG_DIRMARK_CACHEDIR: return rg_cachedir_signed(head, n);
    case RG_DIRMARK_PYVENV: return rg_pyvenv_configures(head, n);
    case RG_DIRMARK_CMAKE: return rg_cmake_cache(head, n);
    case RG_DIRMARK_EGGINFO: return rg_egg_info(head, n);
    /* A head as long as the bound may be a longer file cut short. */
    case RG_DIRMARK_GITIGNORE_ALL: return n < m->head && rg_gitignore_all(head, n);
    case RG_DIRMARK_SPHINX: return rg_sphinx_buildinfo(head, n);
    case RG_DIRMARK_ISTANBUL: return rg_istanbul_page(head, n);
    case RG_DIRMARK_MODULE_BUILD:
        return n >= sizeof module_build_params - 1 &&
               memcmp(head, module_build_params, sizeof module_build_params - 1) == 0;
    case RG_DIRMARK_CMAKE_INSTALL:
        return n >= sizeof cmake_install_line - 1 &&
               memcmp(head, cmake_install_line, sizeof cmake_install_line - 1) == 0;
    }
    return false;
}

bool rg_dirmark_fits(const struct rg_dirmark *m, const char *dir, size_t n)
{
    size_t len = strlen(m->dir_suffix);
    if (len == 0)
        return true;
    /* The suffix of a name, not a whole name: ".egg-info" alone is none. */
    return n > len && memcmp(dir + n - len, m->dir_suffix, len) == 0 && dir[n - len - 1] != '/';
}

bool rg_egg_info(const char *head, size_t n)
{
    return n >= sizeof pkg_info_field - 1 &&
           memcmp(head, pkg_info_field, sizeof pkg_info_field - 1) == 0;
}

/* One line of a .gitignore, s[0, len): blank, a comment, the rule "*"
 * (with the trailing spaces git strips), or any other rule. */
enum ignore_line { LINE_NONE, LINE_COMMENT, LINE_ALL, LINE_OTHER };

static enum ignore_line ignore_line(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    if (len == 0)
        return LINE_NONE;
    if (s[0] == '#')
        return LINE_COMMENT;
    return len == 1 && s[0] == '*' ? LINE_ALL : LINE_OTHER;
}

bool rg_gitignore_all(const char *head, size_t n)
{
    if (n == 0 || head[0] != '#' || memchr(head, '\0', n))
        return false;
    bool all = false;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(head + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - head) : n;
        enum ignore_line kind = ignore_line(head + i, end - i);
        if (kind == LINE_OTHER)
            return false;
        all = all || kind == LINE_ALL;
        i = end + 1;
    }
    return all;
}

bool rg_cachedir_signed(const char *head, size_t n)
{
    return n >= sizeof cachedir_signature - 1 &&
           memcmp(head, cachedir_signature, sizeof cachedir_signature - 1) == 0;
}

static bool blank(char ch) { return ch == ' ' || ch == '\t'; }

/* Does the line at head[i, n) have the key "home"? */
static bool home_line(const char *head, size_t i, size_t n)
{
    while (i < n && blank(head[i]))
        i++;
    static const char key[] = "home";
    for (size_t k = 0; k < sizeof key - 1; k++, i++)
        if (i >= n || (head[i] | 0x20) != key[k])
            return false;
    while (i < n && blank(head[i]))
        i++;
    return i < n && head[i] == '=';
}

bool rg_pyvenv_configures(const char *head, size_t n)
{
    if (memchr(head, '\0', n))
        return false;
    for (size_t i = 0; i < n;) {
        if (home_line(head, i, n))
            return true;
        const char *nl = memchr(head + i, '\n', n - i);
        if (!nl)
            break;
        i = (size_t)(nl - head) + 1;
    }
    return false;
}

bool rg_cmake_cache(const char *head, size_t n)
{
    return n >= sizeof cmake_cache_line - 1 &&
           memcmp(head, cmake_cache_line, sizeof cmake_cache_line - 1) == 0;
}

bool rg_sqlite_header(const char *head, size_t n)
{
    return n >= RG_SQLITE_HEAD && memcmp(head, sqlite_header, RG_SQLITE_HEAD) == 0;
}

size_t rg_sqlite_companion(const char *path)
{
    static const char suffixes[][sizeof "-journal"] = {"-wal", "-shm", "-journal"};
    size_t len = strlen(path);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t s = strlen(suffixes[i]);
        if (len > s && memcmp(path + len - s, suffixes[i], s) == 0 && path[len - s - 1] != '/')
            return len - s;
    }
    return 0;
}

static const char config_log_lines[] =
    "This file contains any messages produced by compilers while\n"
    "running configure, to aid debugging if configure makes a mistake.\n";

static bool starts(const char *head, size_t n, const char *text)
{
    size_t len = strlen(text);
    return n >= len && memcmp(head, text, len) == 0;
}

static const char configure_lines[] =
    "# Guess values for system-dependent variables and create Makefiles.\n"
    "# Generated by GNU Autoconf ";

/* A "#!" line, then text. */
static bool script_then(const char *head, size_t n, const char *text)
{
    const char *nl = memchr(head, '\n', n);
    if (!nl || !starts(head, n, "#!"))
        return false;
    size_t line2 = (size_t)(nl - head) + 1;
    return starts(head + line2, n - line2, text);
}

/* automake's config-header stamps: stamp-h1, stamp-h2 ... */
static bool stamp_h(const char *name)
{
    if (strncmp(name, "stamp-h", 7) != 0 || !name[7])
        return false;
    for (name += 7; *name; name++)
        if (*name < '0' || *name > '9')
            return false;
    return true;
}

/* A config header's template, config.h.in or any other NAME.in. */
static bool template_in(const char *name)
{
    size_t len = strlen(name);
    return len > 3 && strcmp(name + len - 3, ".in") == 0;
}

static bool ends(const char *s, size_t n, const char *text)
{
    size_t len = strlen(text);
    return n >= len && memcmp(s + n - len, text, len) == 0;
}

/* autoheader's first line is a C comment, "DIR/NAME.  Generated from ...
 * by autoheader.", with DIR/ as configure.ac spelled the header. */
static bool autoheader_line(const char *name, const char *head, size_t n)
{
    static const char from[] = ".  Generated from ";
    const char *nl = memchr(head, '\n', n);
    if (!nl || !starts(head, n, "/* ") || !ends(head, (size_t)(nl - head), " by autoheader.  */"))
        return false;
    size_t line = (size_t)(nl - head), len = strlen(name);
    /* The path runs to the first blank, less the period that ends it. */
    const char *blank = memchr(head + 3, ' ', line - 3);
    if (!blank || blank == head + 3)
        return false;
    size_t path = (size_t)(blank - head) - 3 - 1;
    return starts(head + 3 + path, line - 3 - path, from) && ends(head + 3, path, name) &&
           (path == len || head[3 + path - len - 1] == '/');
}

bool rg_configure_output(const char *name)
{
    return strcmp(name, "config.log") == 0 || strcmp(name, "config.status") == 0 ||
           strcmp(name, "configure") == 0 || strcmp(name, "libtool") == 0 || stamp_h(name) ||
           template_in(name);
}

bool rg_configure_wrote(const char *name, const char *head, size_t n)
{
    if (strcmp(name, "config.log") == 0)
        return starts(head, n, config_log_lines);
    if (strcmp(name, "config.status") == 0)
        return script_then(head, n, "# Generated by configure.\n");
    if (strcmp(name, "configure") == 0)
        return script_then(head, n, configure_lines);
    if (strcmp(name, "libtool") == 0)
        return script_then(head, n, "# Generated automatically by config.status (");
    if (stamp_h(name))
        return starts(head, n, "timestamp for ");
    return template_in(name) && autoheader_line(name, head, n);
}

static const struct {
    char name[sizeof "MYMETA.json"];
    char head[sizeof "{\n   \"abstract\" : \""];
} mymeta_files[] = {
    {"MYMETA.json", "{\n   \"abstract\" : \""},
    {"MYMETA.yml", "---\nabstract: "},
};

bool rg_perl_mymeta(const char *name, const char *head, size_t n)
{
    for (size_t i = 0; i < sizeof mymeta_files / sizeof mymeta_files[0]; i++)
        if (strcmp(name, mymeta_files[i].name) == 0)
            return starts(head, n, mymeta_files[i].head);
    return false;
}

static const struct {
    char name[sizeof "cmake_install.cmake"];
    char line[sizeof cmake_generated_line];
} cmake_outputs[] = {
    {"Makefile", "# CMAKE generated file: DO NOT EDIT!\n"},
    {"build.ninja", "# CMAKE generated file: DO NOT EDIT!\n"},
    {"cmake_install.cmake", "# Install script for directory: "},
    {"CTestTestfile.cmake", "# CMake generated Testfile for "},
};

static int cmake_output(const char *name)
{
    for (size_t i = 0; i < sizeof cmake_outputs / sizeof cmake_outputs[0]; i++)
        if (strcmp(name, cmake_outputs[i].name) == 0)
            return (int)i;
    return -1;
}

bool rg_cmake_output(const char *name) { return cmake_output(name) >= 0; }

bool rg_cmake_wrote(const char *name, const char *head, size_t n)
{
    int i = cmake_output(name);
    return i >= 0 && starts(head, n, cmake_outputs[i].line);
}

bool rg_cmake_manifest(const char *name, const char *head, size_t n)
{
    return strcmp(name, "install_manifest.txt") == 0 && n > 0 && head[0] == '/';
}

bool rg_wheel_name(const char *name)
{
    size_t len = strlen(name), dashes = 0;
    if (len <= 4 || strcmp(name + len - 4, ".whl") != 0)
        return false;
    /* Five or six fields, none empty. */
    for (size_t i = 0; i < len - 4; i++) {
        if (name[i] != '-')
            continue;
        if (i == 0 || name[i - 1] == '-' || i + 1 == len - 4)
            return false;
        dashes++;
    }
    return dashes == 4 || dashes == 5;
}

bool rg_wheel_head(const char *head, size_t n)
{
    return n >= RG_WHEEL_HEAD && memcmp(head, "PK\3\4", RG_WHEEL_HEAD) == 0;
}

bool rg_doctree_name(const char *name)
{
    size_t len = strlen(name);
    return len > 8 && strcmp(name + len - 8, ".doctree") == 0;
}

bool rg_pickle_head(const char *head, size_t n)
{
    return n >= RG_PICKLE_HEAD && (unsigned char)head[0] == 0x80 && head[1] >= 2 && head[1] <= 5;
}

bool rg_sphinx_buildinfo(const char *head, size_t n)
{
    return n >= sizeof sphinx_buildinfo_line - 1 &&
           memcmp(head, sphinx_buildinfo_line, sizeof sphinx_buildinfo_line - 1) == 0;
}

bool rg_mo_name(const char *name)
{
    size_t len = strlen(name);
    return (len > 3 && strcmp(name + len - 3, ".mo") == 0) ||
           (len > 4 && strcmp(name + len - 4, ".gmo") == 0);
}

bool rg_mo_head(const char *head, size_t n)
{
    return n >= RG_MO_HEAD && (memcmp(head, "\xde\x12\x04\x95", RG_MO_HEAD) == 0 ||
                               memcmp(head, "\x95\x04\x12\xde", RG_MO_HEAD) == 0);
}

bool rg_gcov_data(const char *name, const char *head, size_t n)
{
    static const char kinds[][sizeof "gcno"] = {"gcno", "gcda"};
    size_t len = strlen(name);
    if (len <= sizeof ".gcno" - 1 || name[len - 5] != '.' || n < RG_GCOV_HEAD)
        return false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const char *k = kinds[i];
        const char swapped[RG_GCOV_HEAD] = {k[3], k[2], k[1], k[0]};
        if (strcmp(name + len - 4, k) == 0)
            return memcmp(head, k, RG_GCOV_HEAD) == 0 || memcmp(head, swapped, RG_GCOV_HEAD) == 0;
    }
    return false;
}

bool rg_compdb(const char *name, const char *head, size_t n)
{
    /* As its first bytes read with JSON's white space taken out; "[]" is
     * bear's when make compiled nothing. */
    static const char tight_heads[][16] = {
        "[]", "[{\"arguments\"", "[{\"command\"", "[{\"directory\"", "[{\"file\"", "[{\"output\""};
    char tight[16];
    size_t len = 0;
    if (strcmp(name, "compile_commands.json") != 0)
        return false;
    for (size_t i = 0; i < n && len < sizeof tight; i++)
        if (!blank(head[i]) && head[i] != '\n' && head[i] != '\r')
            tight[len++] = head[i];
    for (size_t k = 0; k < sizeof tight_heads / sizeof *tight_heads; k++)
        if (starts(tight, len, tight_heads[k]))
            return true;
    return false;
}
