#include "core/envp.h"

#include <string.h>

#define SHIM_NAME "libreadguard.so"
#define IO_URING_OFF "UV_USE_IO_URING=0"

/* The value of NAME=... if entry is that variable. */
static const char *value_of(const char *entry, const char *name)
{
    size_t n = strlen(name);
    return strncmp(entry, name, n) == 0 && entry[n] == '=' ? entry + n + 1 : NULL;
}

bool rg_preload_has_shim(const char *list)
{
    const size_t want = sizeof SHIM_NAME - 1;
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ": ");
        if (len >= want && memcmp(p + len - want, SHIM_NAME, want) == 0 &&
            (len == want || p[len - want - 1] == '/'))
            return true;
        p += len;
        p += strspn(p, ": ");
    }
    return false;
}

/* The first value of name in envp, as getenv would find it. */
static const char *lookup(char *const *envp, const char *name)
{
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *v = value_of(envp[i], name);
        if (v)
            return v;
    }
    return NULL;
}

static bool preload_ok(const char *v, const struct rg_env_need *need)
{
    return !need->preload || (v && rg_preload_has_shim(v));
}

static bool session_ok(const char *v, const struct rg_env_need *need)
{
    return !need->session || (v && *v);
}

static bool uring_ok(const char *v)
{
    return v && strcmp(v, "0") == 0;
}

bool rg_envp_complete(char *const *envp, const struct rg_env_need *need)
{
    return preload_ok(lookup(envp, "LD_PRELOAD"), need) &&
           session_ok(lookup(envp, "READGUARD_SESSION"), need) &&
           uring_ok(lookup(envp, "UV_USE_IO_URING"));
}

/* Appends NAME=a[sep b] to buf; NULL if it does not fit. */
static char *put(char **buf, size_t *left, const char *name, const char *a, const char *b)
{
    size_t nn = strlen(name), na = strlen(a), nb = b ? strlen(b) : 0;
    size_t need = nn + 1 + na + (b ? 1 + nb : 0) + 1;
    if (need > *left)
        return NULL;
    char *s = *buf, *p = s;
    memcpy(p, name, nn);
    p += nn;
    *p++ = '=';
    memcpy(p, a, na);
    p += na;
    if (b) {
        *p++ = ':';
        memcpy(p, b, nb);
        p += nb;
    }
    *p++ = '\0';
    *buf = p;
    *left -= need;
    return s;
}

long rg_envp_build(char *const *envp, const struct rg_env_need *need, char **out, size_t outcap,
                   char *buf, size_t bufcap)
{
    const char *preload = lookup(envp, "LD_PRELOAD");
    const char *session = lookup(envp, "READGUARD_SESSION");
    bool fix_preload = !preload_ok(preload, need), fix_session = !session_ok(session, need);
    size_t n = 0;
    /* Every copy of a variable that is rebuilt goes: the loader and getenv
     * would otherwise disagree on which one counts. */
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *e = envp[i];
        if ((fix_preload && value_of(e, "LD_PRELOAD")) ||
            (fix_session && value_of(e, "READGUARD_SESSION")) || value_of(e, "UV_USE_IO_URING"))
            continue;
        if (n + 1 >= outcap)
            return -1;
        out[n++] = (char *)e;
    }
    if (n + 4 > outcap)
        return -1;
    if (fix_preload) {
        const char *rest = preload && *preload ? preload : NULL;
        if (!(out[n++] = put(&buf, &bufcap, "LD_PRELOAD", need->preload, rest)))
            return -1;
    }
    if (fix_session && !(out[n++] = put(&buf, &bufcap, "READGUARD_SESSION", need->session, NULL)))
        return -1;
    out[n++] = (char *)IO_URING_OFF;
    out[n] = NULL;
    return (long)n;
}
