#include "core/texmark.h"
#include <string.h>

static const struct rg_tex_output tex_outputs[] = {
    {".pdf", "%PDF-", ".tex", ""},
    {".bbl", "", ".aux", "\\relax"},
};

static bool starts(const char *head, size_t n, const char *text)
{
    size_t len = strlen(text);
    return n >= len && memcmp(head, text, len) == 0;
}

static bool ends_named(const char *name, size_t len, const char *suffix)
{
    size_t s = strlen(suffix);
    return len > s && memcmp(name + len - s, suffix, s) == 0 && name[len - s - 1] != '/';
}

static bool engine_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-';
}

/* The engine's -recorder file: "PWD /dir", then "INPUT " or "OUTPUT ". */
static bool recorder(const char *head, size_t n)
{
    const char *nl = memchr(head, '\n', n);
    if (!nl || !starts(head, n, "PWD /"))
        return false;
    size_t next = (size_t)(nl - head) + 1;
    return starts(head + next, n - next, "INPUT ") || starts(head + next, n - next, "OUTPUT ");
}

bool rg_tex_transcript(const char *name, const char *head, size_t n)
{
    size_t len = strlen(name);
    if (ends_named(name, len, ".fls"))
        return recorder(head, n);
    if (!ends_named(name, len, ".log") && !ends_named(name, len, ".blg"))
        return false;
    static const char this_is[] = "This is ", version[] = "TeX, Version ";
    if (!starts(head, n, this_is))
        return false;
    size_t i = sizeof this_is - 1;
    while (i < n && engine_letter(head[i]) && !starts(head + i, n - i, version))
        i++;
    return starts(head + i, n - i, version);
}

const struct rg_tex_output *rg_tex_output(const char *path, size_t *stem)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < sizeof tex_outputs / sizeof tex_outputs[0]; i++)
        if (ends_named(path, len, tex_outputs[i].suffix)) {
            *stem = len - strlen(tex_outputs[i].suffix);
            return &tex_outputs[i];
        }
    return NULL;
}

bool rg_tex_output_head(const struct rg_tex_output *o, const char *head, size_t n)
{
    return starts(head, n, o->head);
}

bool rg_tex_sibling_head(const struct rg_tex_output *o, const char *head, size_t n)
{
    return n > 0 && starts(head, n, o->sibling_head);
}
