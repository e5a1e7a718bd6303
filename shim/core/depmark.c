#include "core/depmark.h"
#include <string.h>

static bool ends_target(char ch) { return ch == ':' || ch == ' ' || ch == '\n' || ch == '\0'; }

/* The compiler's own sources: what gcc -MD puts first after the target. */
static bool c_family(const char *p, size_t len)
{
    static const char exts[][6] = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C",
                                   ".m", ".mm", ".S",   ".sx",  ".cp"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i]);
        if (len > e && memcmp(p + len - e, exts[i], e) == 0)
            return true;
    }
    return false;
}

/* The target, head[0..t), is the output gcc named the file after: its
 * last component is stem, or stem and an extension. */
static bool named_after(const char *head, size_t t, const char *stem, size_t stem_len)
{
    const char *last = head;
    for (size_t i = 0; i < t; i++)
        if (head[i] == '/')
            last = head + i + 1;
    size_t len = (size_t)(head + t - last);
    return len >= stem_len && memcmp(last, stem, stem_len) == 0 &&
           (len == stem_len || last[stem_len] == '.');
}

/* After the target's ": ", the first prerequisite is a C-family source. */
static bool first_prereq_c(const char *head, size_t from, size_t n)
{
    size_t end = from;
    while (end < n && head[end] != ' ' && head[end] != '\n' && head[end] != '\\' &&
           head[end] != '\0')
        end++;
    return end > from && end < n && c_family(head + from, end - from);
}

bool rg_depfile(const char *name, const char *head, size_t n)
{
    size_t len = strlen(name), t = 0;
    if (len <= 2 || strcmp(name + len - 2, ".d") != 0)
        return false;
    while (t < n && !ends_target(head[t]))
        t++;
    if (t == 0 || t + 1 >= n || head[t] != ':' || (head[t + 1] != ' ' && head[t + 1] != '\n'))
        return false;
    if (t > 2 && head[t - 2] == '.' && head[t - 1] == 'o')
        return true;
    return head[t + 1] == ' ' && named_after(head, t, name, len - 2) &&
           first_prereq_c(head, t + 2, n);
}
