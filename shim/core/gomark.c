#include "core/gomark.h"
#include <string.h>

static const char go_generated_start[] = "// Code generated ";
static const char go_generated_end[] = " DO NOT EDIT.";

bool rg_go_generated(const char *name, const char *head, size_t n)
{
    size_t len = strlen(name), start = sizeof go_generated_start - 1,
           end = sizeof go_generated_end - 1;
    if (len <= 3 || strcmp(name + len - 3, ".go") != 0)
        return false;
    const char *nl = memchr(head, '\n', n);
    if (!nl)
        return false;
    size_t line = (size_t)(nl - head);
    /* A file written on Windows ends its lines in CR LF; Go's own check
     * (go/ast.IsGenerated) reads the comment without the CR. */
    if (line > 0 && head[line - 1] == '\r')
        line--;
    /* The two blanks are distinct: Go's pattern is the start, anything,
     * then the end. */
    return line >= start + end && memcmp(head, go_generated_start, start) == 0 &&
           memcmp(head + line - end, go_generated_end, end) == 0 && !memchr(head, '\0', line);
}
