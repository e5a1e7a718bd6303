#include "core/toolmark.h"
#include <string.h>

static const char cachedir_signature[] = "Signature: 8a477f597d28d172789f06886806bc55";
static const char cmake_cache_line[] = "# This is the CMakeCache file.";
static const char sqlite_header[RG_SQLITE_HEAD] = "SQLite format 3";

const struct rg_dirmark rg_dirmarks[] = {
    {"CACHEDIR.TAG", sizeof cachedir_signature - 1, RG_DIRMARK_CACHEDIR, ""},
    {"pyvenv.cfg", RG_DIRMARK_HEAD_MAX, RG_DIRMARK_PYVENV, ""},
    /* cmake -B . in the source directory puts its cache beside the
     * project's CMakeLists.txt, and the sources stay guarded. */
    {"CMakeCache.txt", sizeof cmake_cache_line - 1, RG_DIRMARK_CMAKE, "CMakeLists.txt"},
};
const size_t rg_ndirmarks = sizeof rg_dirmarks / sizeof rg_dirmarks[0];

bool rg_dirmark_says(const struct rg_dirmark *m, const char *head, size_t n)
{
    switch (m->kind) {
    case RG_DIRMARK_CACHEDIR: return rg_cachedir_signed(head, n);
    case RG_DIRMARK_PYVENV: return rg_pyvenv_configures(head, n);
    case RG_DIRMARK_CMAKE: return rg_cmake_cache(head, n);
    }
    return false;
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
