#include "core/genmark.h"
#include <string.h>

static bool starts(const char *head, size_t n, const char *text)
{
    size_t len = strlen(text);
    return n >= len && memcmp(head, text, len) == 0;
}

/* The whole line '#line N "PATH"', PATH ending in name: flex names the
 * file it writes, a person's #line names another. */
static bool line_names_itself(const char *head, size_t n, const char *name)
{
    size_t i = sizeof "#line " - 1, len = strlen(name);
    if (!starts(head, n, "#line "))
        return false;
    size_t digits = i;
    while (i < n && head[i] >= '0' && head[i] <= '9')
        i++;
    if (i == digits || i + 2 > n || head[i] != ' ' || head[i + 1] != '"')
        return false;
    const char *path = head + i + 2, *end = memchr(path, '"', n - i - 2);
    if (!end || (size_t)(end - path) < len || end + 1 >= head + n || end[1] != '\n')
        return false;
    const char *tail = end - len;
    return memcmp(tail, name, len) == 0 && (tail == path || tail[-1] == '/');
}

bool rg_parser_generated(const char *name, const char *head, size_t n)
{
    if (!*name)
        return false;
    if (starts(head, n, "/* A Bison parser, made by GNU Bison ") ||
        starts(head, n, "// A Bison parser, made by GNU Bison "))
        return memchr(head, '\n', n) != NULL;
    if (n > 0 && head[0] == '\n')
        return line_names_itself(head + 1, n - 1, name);
    return line_names_itself(head, n, name);
}
