#include "core/pathsearch.h"
#include <errno.h>
#include <string.h>

int rg_search_start(struct rg_search *s, const char *path, const char *file)
{
    if (!path)
        path = RG_PATH_DEFAULT;
    s->file_len = strnlen(file, NAME_MAX + 1) + 1;
    if (s->file_len - 1 > NAME_MAX)
        return ENAMETOOLONG;
    s->next = path;
    s->file = file;
    s->path_len = strnlen(path, PATH_MAX - 1) + 1;
    return 0;
}

bool rg_search_next(struct rg_search *s, char *buf)
{
    for (;;) {
        const char *p = s->next;
        if (!p)
            return false;
        const char *e = strchrnul(p, ':');
        size_t len = (size_t)(e - p);
        if (len >= s->path_len) {
            /* As glibc: an element too long for its buffer is passed over by
             * going on from the ':' after it, which then reads as an empty
             * element, the working directory. */
            s->next = *e ? e : NULL;
            continue;
        }
        memcpy(buf, p, len);
        buf[len] = '/';
        memcpy(buf + len + (len > 0), s->file, s->file_len);
        s->next = *e ? e + 1 : NULL;
        return true;
    }
}

bool rg_search_goes_on(int err)
{
    switch (err) {
    case EACCES:
    case ENOENT:
    case ESTALE:
    case ENOTDIR:
    /* Some network file systems say these of a missing file. */
    case ENODEV:
    case ETIMEDOUT: return true;
    default: return false;
    }
}

size_t rg_script_slots(char *const argv[])
{
    size_t argc;
    for (argc = 0; argv[argc]; argc++)
        if (argc == INT_MAX - 1)
            return 0;
    return argc > 1 ? argc + 2 : 3;
}

void rg_script_argv(const char *file, char *const argv[], char **out)
{
    out[0] = (char *)RG_SCRIPT_SHELL;
    out[1] = (char *)file;
    out[2] = NULL;
    if (argv[0])
        for (size_t i = 1; (out[i + 1] = argv[i]); i++)
            ;
}
