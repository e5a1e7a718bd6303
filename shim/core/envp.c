#include "core/envp.h"
#include <string.h>

#include "core/hot.h"
#include "core/preload_list.h"
#include "core/settings.h"
#include "core/tablebind.h"

#define IO_URING_OFF "UV_USE_IO_URING=0"

/* entry past its first len bytes if they are name's, else NULL. Inline and
 * unrolled: with name a constant, each byte is one comparison with an
 * immediate, and every process runs this before main(). */
static inline __attribute__((always_inline)) const char *past(const char *entry, const char *name,
                                                              size_t len)
{
#pragma GCC unroll 32
    for (size_t i = 0; i < len; i++)
        if (entry[i] != name[i])
            return NULL;
    return entry + len;
}

/* The value of entry if it is NAME=value (len: strlen of NAME), else NULL. */
static inline __attribute__((always_inline)) const char *value_at(const char *entry,
                                                                  const char *name, size_t len)
{
    const char *p = past(entry, name, len);
    return p && *p == '=' ? p + 1 : NULL;
}

#define VALUE_AT(entry, name) value_at((entry), (name), sizeof(name) - 1)
/* The same, for an entry whose first byte first_byte (below) has told:
 * compared again, the byte was kept in a register through the loop, one
 * instruction more for every variable of the environment. */
#define VALUE_PAST_FIRST(entry, name) value_at((entry) + 1, (name) + 1, sizeof(name) - 2)

/* The names every process looks for before main() and every exec checks
 * (core/hot.h says why not in .rodata). */
RG_START_CONST static const char n_preload[] = "LD_PRELOAD", n_session[] = RG_ENV_SESSION,
                                 n_owner[] = RG_ENV_OWNER, n_trampoline[] = RG_ENV_TRAMPOLINE,
                                 n_uring[] = "UV_USE_IO_URING", n_binding[] = RG_ENV_SESSION_FILE,
                                 n_own[] = "READGUARD_";

bool rg_preload_has_shim(const char *list)
{
    for (const char *p = list; p && *p;) {
        size_t len = rg_plist_entry_len(p);
        if (rg_plist_names_shim(p, len))
            return true;
        p = rg_plist_skip_seps(p + len);
    }
    return false;
}

RG_START_TEXT enum rg_libc rg_shim_libc(const char *entry, size_t len)
{
    return rg_plist_is_musl(entry, len) ? RG_LIBC_MUSL : RG_LIBC_GLIBC;
}

/* The entry for a program loaded by `loader`, given the session's glibc and
 * musl entries (either may be NULL: not built). NULL when neither fits; for
 * musl without its own build, glibc's when it names $LIB (musl skips it, and
 * the program's glibc children find it). */
RG_START_TEXT static const char *shim_for(enum rg_libc loader, const char *glibc, const char *musl)
{
    if (loader == RG_LIBC_GLIBC)
        return glibc;
    if (musl)
        return musl;
    return glibc && strchr(glibc, '$') ? glibc : NULL;
}

RG_START_TEXT bool rg_env_choose(struct rg_env_need *need, enum rg_prog kind, bool native,
                                 enum rg_libc own, const char *glibc, const char *musl)
{
    need->loader = own;
    switch (kind) {
    case RG_PROG_GLIBC: need->loader = RG_LIBC_GLIBC; break;
    case RG_PROG_MUSL:
        need->loader = RG_LIBC_MUSL;
        if (!native)
            musl = NULL; /* another ELF class: this build's musl shim would not map */
        break;
    case RG_PROG_UNKNOWN:
    case RG_PROG_SCRIPT:
        /* Not looked at: what it was always handed. */
        need->preload = own == RG_LIBC_GLIBC ? glibc : musl;
        return true;
    default:
        /* It reads no LD_PRELOAD itself; its children may. */
        need->preload = own == RG_LIBC_GLIBC ? glibc : musl;
        return false;
    }
    need->preload = shim_for(need->loader, glibc, musl);
    return need->preload &&
           rg_shim_libc(need->preload, rg_plist_entry_len(need->preload)) == need->loader;
}

/* Is one entry of LD_PRELOAD (len bytes) a shim the loader cannot load? */
RG_START_TEXT static bool foreign(const char *p, size_t len, enum rg_libc loader)
{
    if (!rg_plist_names_shim(p, len))
        return false;
    enum rg_libc lib = rg_shim_libc(p, len);
    return lib != loader && !(loader == RG_LIBC_MUSL && memchr(p, '$', len));
}

/* The rest of each name of ours after its "READGUARD_" (n_own), and how long. */
#define OWN_LEN (sizeof n_own - 1)
#define REST(name) ((name) + OWN_LEN), (sizeof(name) - 1 - OWN_LEN)

/* A variable of readguard's own, from the byte after its "READGUARD_" (r).
 * A session carries seven, which one comparison of that prefix and then a
 * byte or two each tells apart (not up to four comparisons of the whole
 * name each). The binding's name is the session's and "_FILE"
 * (test_envp.c holds both): the bytes they share are compared once. */
RG_START_TEXT static inline __attribute__((always_inline)) void own_var(struct rg_env_vars *v,
                                                                        const char *r)
{
    const char *x;
    if ((x = past(r, REST(n_session)))) {
        if (*x == '=') {
            if (!v->session)
                v->session = x + 1;
        } else if (!v->binding) {
            v->binding =
                value_at(x, n_binding + sizeof n_session - 1, sizeof n_binding - sizeof n_session);
        }
    } else if (!v->owner && (x = value_at(r, REST(n_owner)))) {
        v->owner = x;
    } else if (!v->trampoline && (x = value_at(r, REST(n_trampoline)))) {
        v->trampoline = x;
    }
}

/* The first bytes of the names rg_env_vars looks for, each its own entry
 * (0: none starts so). One load and one test rule out nearly every
 * variable: a range and a bit test took two instructions more for each of
 * the some 45 variables of a process's environment. */
RG_START_CONST static const unsigned char first_byte[256] = {['L'] = 'L', ['R'] = 'R', ['U'] = 'U'};

RG_START_TEXT struct rg_env_vars rg_env_vars(char *const *envp)
{
    struct rg_env_vars v = {NULL, NULL, NULL, NULL, NULL, NULL};
    for (char *const *p = envp; p && *p; p++) {
        const char *e = *p, *x;
        unsigned char first = first_byte[(unsigned char)e[0]];
        if (__builtin_expect(!first, 1))
            continue;
        switch (first) {
        case 'L':
            if (!v.preload && (x = VALUE_PAST_FIRST(e, n_preload)))
                v.preload = x;
            break;
        case 'R':
            if ((x = past(e + 1, n_own + 1, OWN_LEN - 1)))
                own_var(&v, x);
            break;
        case 'U':
            if (!v.uring && (x = VALUE_PAST_FIRST(e, n_uring)))
                v.uring = x;
            break;
        default: break;
        }
    }
    return v;
}

/* Carries a shim of need->preload's build, and none the loader cannot load? */
RG_START_TEXT static bool preload_ok(const char *v, const struct rg_env_need *need)
{
    bool found = !need->preload;
    enum rg_libc want = need->preload
                            ? rg_shim_libc(need->preload, rg_plist_entry_len(need->preload))
                            : need->loader;
    for (const char *p = v; p && *p;) {
        size_t len = rg_plist_entry_len(p);
        if (foreign(p, len, need->loader))
            return false;
        found |= rg_plist_names_shim(p, len) && rg_shim_libc(p, len) == want;
        p = rg_plist_skip_seps(p + len);
    }
    return found;
}

RG_START_TEXT static bool session_ok(const char *v, const struct rg_env_need *need)
{
    return !need->session || (v && *v);
}

/* A binding already there is left as it is, as a session already there is. */
RG_START_TEXT static bool binding_ok(const char *v, const struct rg_env_need *need)
{
    return !need->binding || (v && *v);
}

RG_START_TEXT static bool uring_ok(const char *v) { return v && v[0] == '0' && v[1] == '\0'; }

RG_START_TEXT bool rg_envp_complete(char *const *envp, const struct rg_env_need *need)
{
    struct rg_env_vars v = rg_env_vars(envp);
    return preload_ok(v.preload, need) && session_ok(v.session, need) &&
           binding_ok(v.binding, need) && uring_ok(v.uring);
}

/* Appends NAME=value to buf; NULL if it does not fit. */
static char *put(char **buf, size_t *left, const char *name, const char *value)
{
    size_t nn = strlen(name), nv = strlen(value);
    size_t need = nn + 1 + nv + 1;
    if (need > *left)
        return NULL;
    char *s = *buf, *p = s;
    memcpy(p, name, nn);
    p += nn;
    *p++ = '=';
    memcpy(p, value, nv);
    p += nv;
    *p++ = '\0';
    *buf = p;
    *left -= need;
    return s;
}

/* Appends len bytes of s to the value being written at *p; false if the
 * room up to end (one byte kept for the NUL) runs out. */
static bool append(char **p, const char *end, const char *s, size_t len, bool sep)
{
    if ((size_t)(end - *p) < len + sep + 1)
        return false;
    if (sep)
        *(*p)++ = ':';
    memcpy(*p, s, len);
    *p += len;
    return true;
}

/* LD_PRELOAD=need->preload (unless old has one of its build) followed by
 * the entries of old the loader can load; "" when that leaves nothing. NULL
 * if it does not fit. */
static char *put_preload(char **buf, size_t *left, const char *old, const struct rg_env_need *need)
{
    static const char name[] = "LD_PRELOAD=";
    char *s = *buf, *p = s, *end = s + *left;
    if (!append(&p, end, name, sizeof name - 1, false))
        return NULL;
    char *value = p;
    if (need->preload) {
        enum rg_libc want = rg_shim_libc(need->preload, strlen(need->preload));
        bool have = false;
        for (const char *q = old; q && *q;) {
            size_t len = rg_plist_entry_len(q);
            have |= rg_plist_names_shim(q, len) && rg_shim_libc(q, len) == want &&
                    !foreign(q, len, need->loader);
            q = rg_plist_skip_seps(q + len);
        }
        if (!have && !append(&p, end, need->preload, strlen(need->preload), false))
            return NULL;
    }
    for (const char *q = old; q && *q;) {
        size_t len = rg_plist_entry_len(q);
        if (!foreign(q, len, need->loader) && !append(&p, end, q, len, p != value))
            return NULL;
        q = rg_plist_skip_seps(q + len);
    }
    *p++ = '\0';
    *left -= (size_t)(p - s);
    *buf = p;
    return p - 1 == value ? (char *)"" : s;
}

long rg_envp_build(char *const *envp, const struct rg_env_need *need, char **out, size_t outcap,
                   char *buf, size_t bufcap)
{
    struct rg_env_vars v = rg_env_vars(envp);
    const char *preload = v.preload, *session = v.session;
    bool fix_preload = !preload_ok(preload, need), fix_session = !session_ok(session, need);
    /* The session put back binds to its own file, whatever binding was left. */
    bool fix_binding = need->binding && (fix_session || !binding_ok(v.binding, need));
    size_t n = 0;
    /* Every copy of a variable that is rebuilt goes: the loader and getenv
     * would otherwise disagree on which one counts. */
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *e = envp[i];
        if ((fix_preload && VALUE_AT(e, "LD_PRELOAD")) ||
            (fix_session && VALUE_AT(e, "READGUARD_SESSION")) ||
            (fix_binding && VALUE_AT(e, RG_ENV_SESSION_FILE)) || VALUE_AT(e, "UV_USE_IO_URING"))
            continue;
        if (n + 1 >= outcap)
            return -1;
        out[n++] = (char *)e;
    }
    if (n + RG_ENV_ADDS + 1 > outcap)
        return -1;
    if (fix_preload) {
        if (!(out[n] = put_preload(&buf, &bufcap, preload, need)))
            return -1;
        n += *out[n] != '\0'; /* an LD_PRELOAD with nothing left in it goes */
    }
    if (fix_session && !(out[n++] = put(&buf, &bufcap, "READGUARD_SESSION", need->session)))
        return -1;
    if (fix_binding && !(out[n++] = put(&buf, &bufcap, RG_ENV_SESSION_FILE, need->binding)))
        return -1;
    out[n++] = (char *)IO_URING_OFF;
    out[n] = NULL;
    return (long)n;
}
