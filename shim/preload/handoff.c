#include "preload/handoff.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hot.h"
#include "core/preload_list.h"
#include "core/settings.h"
#include "guard/ctx.h"
#include "guard/log.h"
#include "guard/unguarded.h"
#include "os/exec_target.h"
#include "os/libcvar.h"
#include "os/symver.h"
#include "os/sys.h"
/* Which build of the shim this is: the loader of the process it lives in. */
#ifdef __GLIBC__
#define OWN_LIBC RG_LIBC_GLIBC
#else
#define OWN_LIBC RG_LIBC_MUSL
#endif
/* A variable, so that a test of it is not a constant expression to lint. */
static const enum rg_libc own_libc = OWN_LIBC;

/* The length of the run of bytes at s up to its NUL or, with seps, up to
 * the first ':' or ' ' (an LD_PRELOAD entry's end). Every process runs this
 * on its LD_PRELOAD (under valgrind some 90 bytes) and its session before
 * main(), where a byte loop took 7 instructions a byte: so eight bytes a
 * step, each word's first such byte told by the lowest bit of the classic
 * zero-byte test (exact for the lowest: a borrow only runs upwards from a
 * zero byte). The words are read aligned, so none reaches into a page the
 * string does not; the bytes of the first word before s count as 0xff.
 * Little-endian (the lowest bit is the first byte); a byte loop elsewhere. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef uint64_t __attribute__((may_alias)) word_t;
#define ONES 0x0101010101010101ULL
RG_START_TEXT static inline uint64_t zero_bytes(uint64_t v)
{
    return (v - ONES) & ~v & (ONES << 7);
}

RG_START_TEXT static inline __attribute__((always_inline)) size_t run_len(const char *s, bool seps)
{
    uintptr_t off = (uintptr_t)s & 7;
    const word_t *w = (const word_t *)(const void *)(s - off);
    uint64_t v = *w | ((1ULL << (8 * off)) - 1);
    for (;; v = *++w) {
        uint64_t m = zero_bytes(v);
        if (seps)
            m |= zero_bytes(v ^ (ONES * ':')) | zero_bytes(v ^ (ONES * ' '));
        if (m)
            return (size_t)((const char *)w - s) + (size_t)(__builtin_ctzll(m) >> 3);
    }
}
#else
RG_START_TEXT static size_t run_len(const char *s, bool seps)
{
    size_t n = 0;
    while (seps ? !rg_plist_stop(s[n]) : s[n] != '\0')
        n++;
    return n;
}
#endif

/* Copies the n bytes at src (n < PATH_MAX) and a NUL, eight at a time, the
 * last eight overlapping the ones before: a byte loop costs every process
 * some 8 instructions a byte of its LD_PRELOAD entry before main(). Fixed
 * sizes, so the compiler moves words and calls no memcpy. */
RG_START_TEXT static size_t copy_known(char *dst, const char *src, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8)
            __builtin_memcpy(dst + i, src + i, 8);
        __builtin_memcpy(dst + n - 8, src + n - 8, 8);
    } else {
        for (size_t i = 0; i < n; i++)
            dst[i] = src[i];
    }
    dst[n] = '\0';
    return n;
}

/* Copies the run at src (NULL: "", with no literal "" read from .rodata:
 * core/hot.h), cut at PATH_MAX - 1 bytes, and returns its length. */
RG_START_TEXT static size_t copy_run(char *dst, const char *src, bool seps)
{
    size_t n = src ? run_len(src, seps) : 0;
    return copy_known(dst, src, n < PATH_MAX ? n : PATH_MAX - 1);
}

/* Packs the three entries into x, writing only (the first access of each
 * of its pages a write: a read first would map the zero page, and the write
 * then fault a second time). */
RG_START_TEXT static void pack(struct rg_exec_env *x, const struct rg_env_vars *v,
                               const char *session)
{
    const char *own = NULL, *other = NULL;
    size_t own_len = 0;
    for (const char *p = v->preload; p && *p;) {
        size_t len = run_len(p, true);
        bool musl = rg_plist_is_musl(p, len);
        const char **slot = (musl ? RG_LIBC_MUSL : RG_LIBC_GLIBC) == OWN_LIBC ? &own : &other;
        if (len < PATH_MAX && !*slot && rg_plist_names_shim(p, len)) {
            *slot = p;
            if (slot == &own)
                own_len = len;
        }
        p = rg_plist_skip_seps(p + len);
    }
    size_t o = copy_known(x->buf, own, own_len);
    Dl_info info;
    if (!o && dladdr((void *)rg_exec_env_capture, &info) && info.dli_fname &&
        info.dli_fname[0] == '/')
        o = copy_run(x->buf, info.dli_fname, false);
    x->other_at = (unsigned short)(o + 1);
    o += 1 + copy_run(x->buf + x->other_at, other, true);
    x->session_at = (unsigned short)(o + 1);
    /* A session path is one string, which may hold the separators. */
    copy_run(x->buf + x->session_at, session, false);
}

/* Copies a binding only whole: one cut short could read as another. */
RG_START_TEXT static void copy_binding(char *dst, const char *src)
{
    size_t n = src ? run_len(src, false) : 0;
    copy_known(dst, src, n == RG_TABLEBIND_MAX - 1 ? n : 0);
}

RG_START_TEXT void rg_exec_env_capture(struct rg_exec_env *x, const struct rg_env_vars *v)
{
    if (x->session_made && !v->session) {
        /* A hook that ran before made a session: it stays the one handed
         * on, as it is in environ. */
        char kept[PATH_MAX];
        copy_run(kept, rg_xenv_session(x), false);
        pack(x, v, kept);
        return;
    }
    pack(x, v, v->session);
    copy_binding(x->binding, v->binding);
}

void rg_xenv_set_session(struct rg_exec_env *x, const char *session, const char *binding)
{
    copy_run(x->buf + x->session_at, session, false);
    copy_binding(x->binding, binding);
    x->session_made = true;
}

/* rg_exec_need as if the session's table were still there. */
RG_START_TEXT static void need_unchecked(const struct rg_exec_env *x, struct rg_env_need *need)
{
    need->preload = x->buf[0] ? x->buf : NULL;
    need->session = rg_xenv_session(x)[0] ? rg_xenv_session(x) : NULL;
    need->binding = need->session && x->binding[0] ? x->binding : NULL;
    need->loader = OWN_LIBC;
}

RG_START_TEXT void rg_exec_need(const struct rg_exec_env *x, struct rg_env_need *need)
{
    struct stat st;
    need_unchecked(x, need);
    if (need->session && rg_sys_fstatat(AT_FDCWD, need->session, &st, 0) != 0)
        need->preload = need->session = need->binding = NULL;
}

#ifndef RG_MULTIARCH
#define RG_MULTIARCH ""
#endif
/* The other libc's build, as an entry into out: glibc's is the one above
 * musl/, musl's is in musl/ beside glibc's. An installed glibc entry names
 * $LIB (readguard run writes it for lib/<multiarch>/), which musl's loader
 * cannot expand: it is expanded here the same way. NULL when the file is
 * not there. Called only for a program of the other libc: the common exec
 * pays nothing for it. */
static const char *other_build(const struct rg_exec_env *x, char *out, size_t cap)
{
    static const char lib[] = "$LIB/", multi[] = "lib/" RG_MULTIARCH "/", tail[] = "/" RG_SHIM_FILE,
                      musl_tail[] = RG_SHIM_MUSL_TAIL;
    const char *own = rg_xenv_preload(x);
    size_t n = strlen(own), o = 0;
    if (OWN_LIBC == RG_LIBC_MUSL) {
        size_t t = sizeof musl_tail - 1;
        if (n < t || strcmp(own + n - t, musl_tail) != 0 || n - t + sizeof tail > cap)
            return NULL;
        memcpy(out, own, n - t);
        memcpy(out + n - t, tail, sizeof tail);
        return out; /* glibc's loader says what it cannot open */
    }
    size_t t = sizeof tail - 1;
    if (n < t || n + sizeof multi + sizeof musl_tail > cap)
        return NULL;
    for (size_t i = 0; i < n - t;) {
        if (RG_MULTIARCH[0] && strncmp(own + i, lib, sizeof lib - 1) == 0) {
            memcpy(out + o, multi, sizeof multi - 1);
            o += sizeof multi - 1;
            i += sizeof lib - 1;
        } else {
            out[o++] = own[i++];
        }
    }
    memcpy(out + o, musl_tail, sizeof musl_tail);
    return rg_syscall6(SYS_faccessat, AT_FDCWD, (long)out, R_OK, 0, 0, 0) == 0 ? out : NULL;
}

RG_START_TEXT bool rg_exec_foreign(const struct rg_target *t)
{
    return (t->kind == RG_PROG_GLIBC && own_libc != RG_LIBC_GLIBC) ||
           (t->kind == RG_PROG_MUSL && own_libc != RG_LIBC_MUSL);
}

/* Whether the table is there matters only when envp lacks something or the
 * program is named unguarded. A session that ended adds nothing and names
 * nothing; one still there, for a guarded program of this libc whose envp
 * has the shim, the session and no shim its loader cannot load, adds
 * nothing either: envp goes on as it is both ways. That is every command a
 * shell runs, which so makes one path lookup fewer (the table's) in each
 * forked child. */
RG_START_TEXT bool rg_exec_settled(const struct rg_exec_env *x, const struct rg_target *t,
                                   char *const *envp, struct rg_env_need *need)
{
    if (rg_exec_foreign(t))
        return false;
    need_unchecked(x, need);
    const char *own = need->preload;
    return rg_env_choose(need, t->kind, t->native, own_libc, own_libc == RG_LIBC_GLIBC ? own : NULL,
                         own_libc == RG_LIBC_MUSL ? own : NULL) &&
           rg_envp_complete(envp, need);
}

RG_START_TEXT bool rg_exec_settle(const struct rg_exec_env *x, const struct rg_ctx *c,
                                  const char *call, const char *path, const struct rg_target *t,
                                  char *const *envp, struct rg_env_need *need, char *other_buf)
{
    if (rg_exec_settled(x, t, envp, need))
        return true;
    rg_exec_need(x, need);
    rg_exec_choose(x, c, call, path, t, need, other_buf);
    return rg_envp_complete(envp, need);
}

RG_START_TEXT void rg_exec_choose(const struct rg_exec_env *x, const struct rg_ctx *c,
                                  const char *call, const char *path, const struct rg_target *t,
                                  struct rg_env_need *need, char *other_buf)
{
    const char *own = need->preload, *other = NULL;
    if (own && other_buf && rg_exec_foreign(t))
        other = rg_xenv_other(x)[0] ? rg_xenv_other(x) : other_build(x, other_buf, PATH_MAX);
    bool guarded =
        rg_env_choose(need, t->kind, t->native, own_libc, own_libc == RG_LIBC_GLIBC ? own : other,
                      own_libc == RG_LIBC_MUSL ? own : other);
    const char *sv;
    if (guarded || !need->session || ((sv = getenv(RG_ENV_SUPERVISED)) && *sv))
        return;
    struct rg_unguarded u = {
        path && *path ? path : "(a descriptor)", call, rg_libc_progname(), t->kind, t->dev, t->ino};
    rg_unguarded_notice(c && c->table_state != RG_TABLE_BROKEN ? c->table.hdr : NULL, need->session,
                        &u, c ? rg_log_err_fd(c) : STDERR_FILENO);
}
