#include "guard/dircache.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/content.h"
#include "core/text.h"
#include "os/sys.h"
/* Absolute, with no "//", "." or ".." component. A name that only starts
 * with a dot is plain: toolchains live in ~/.pyenv, ~/.nvm, ~/.cargo, and a
 * read recorded there also counts towards a scan's pace. */
static bool lexically_plain(const char *path, size_t n)
{
    if (n == 0 || path[0] != '/')
        return false;
    for (size_t i = 0; i + 1 < n; i++) {
        if (path[i] != '/')
            continue;
        size_t dots = 0;
        while (dots < 2 && i + 1 + dots < n && path[i + 1 + dots] == '.')
            dots++;
        bool only_dots = i + 1 + dots >= n || path[i + 1 + dots] == '/';
        if (path[i + 1] == '/' || (dots > 0 && only_dots))
            return false;
    }
    return true;
}

/* Where the directory really is, or false if that cannot be told. */
static bool resolve_dir(const char *dir, char *out, size_t cap)
{
    char link[64];
    int fd = rg_sys_openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return false;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, cap - 1);
    rg_sys_close(fd);
    if (n <= 0 || out[0] != '/')
        return false;
    out[n] = '\0';
    return true;
}

/* A fixed open-addressing table of 63-bit directory hashes, the low bit
 * holding the answer. No malloc and no lock: open(2) is async-signal-safe,
 * so this may run in a signal handler or in a child forked mid-call. Two
 * directories with one hash would share an answer; the worst that can do is
 * skip recording a read, never let a write through. */
#define SLOT_MASK (RG_DIRCACHE_SLOTS - 1)
#define MAX_PROBE 8

/* path[0, n), sixteen bytes a step by the content hash's lane (one
 * 64x64->128-bit multiply where two multiplies and two shifts took eight
 * bytes): this runs on every absolute read outside the roots, and most of a
 * path is its directory. Inline for the same reason. */
static inline __attribute__((always_inline)) uint64_t hash_dir(const char *path, size_t n)
{
    const unsigned char *p = (const unsigned char *)path;
    uint64_t h = n * 0x9e3779b97f4a7c15ull, w0 = 0, w1 = 0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        h = rg_hash_lane(h, rg_hash_load(p + i), rg_hash_load(p + i + 8));
    if (i < n) { /* the tail, as the last sixteen bytes (overlapping) if there are */
        if (n >= 16) {
            w0 = rg_hash_load(p + n - 16);
            w1 = rg_hash_load(p + n - 8);
        } else if (n >= 8) {
            w0 = rg_hash_load(p);
            w1 = rg_hash_load(p + n - 8);
        } else {
            for (; i < n; i++)
                w0 = w0 << 8 | p[i];
        }
        h = rg_hash_lane(h, w0, w1);
    }
    h = rg_hash_fold(h ^ 0x94d049bb133111ebull, 0xbf58476d1ce4e5b9ull);
    h &= ~1ull;
    return h ? h : 2;
}

static bool lookup(struct rg_ctx *c, uint64_t h, bool *outside)
{
    for (unsigned i = 0; i < MAX_PROBE; i++) {
        uint64_t v = atomic_load_explicit(&c->dircache[(h + i) & SLOT_MASK], memory_order_relaxed);
        if (v == 0)
            return false;
        if ((v & ~1ull) == h) {
            *outside = v & 1;
            return true;
        }
    }
    return false;
}

static void remember(struct rg_ctx *c, uint64_t h, bool outside)
{
    for (unsigned i = 0; i < MAX_PROBE; i++) {
        uint64_t empty = 0;
        if (atomic_compare_exchange_strong_explicit(&c->dircache[(h + i) & SLOT_MASK], &empty,
                                                    h | outside, memory_order_relaxed,
                                                    memory_order_relaxed) ||
            (empty & ~1ull) == h)
            return;
    }
    /* Full around this hash: the directory is looked up again next time. */
}

/* A directory the cache does not know yet: out of line, with its two
 * PATH_MAX buffers, so that a read answered by the roots or by the cache
 * needs no large frame. */
__attribute__((noinline)) static bool look_up_dir(struct rg_ctx *c, const char *path, size_t n,
                                                  uint64_t h)
{
    /* Only plain directories are answered, so only they are ever cached, and
     * a hit needs no second look at the path. */
    if (n >= PATH_MAX || !lexically_plain(path, n + 1))
        return false;
    char dir[PATH_MAX], real[PATH_MAX];
    memcpy(dir, path, n);
    dir[n ? n : 1] = '\0';
    if (n == 0)
        dir[0] = '/';
    int saved = errno; /* readlink's: a read's open answers with its own */
    bool outside = resolve_dir(dir, real, sizeof real) && !rg_under_a_root(c, real);
    errno = saved;
    remember(c, h, outside);
    return outside;
}

bool rg_dir_outside_roots(struct rg_ctx *c, const char *path)
{
    size_t n = (size_t)(strrchr(path, '/') - path);
    uint64_t h = hash_dir(path, n);
    bool outside;
    return lookup(c, h, &outside) ? outside : look_up_dir(c, path, n, h);
}

/* rg_under_a_root for a path whose last '/' is at n, so whose bytes up to
 * n are all there to compare: no strncmp, and a root longer than n can
 * only be the path itself, which needs its last '/' at n too. Most roots
 * are ruled out by one byte, the one after where the root would end, and
 * the compare is only made for a directory at or under the root. */
static inline __attribute__((always_inline)) bool under_a_root_at(const struct rg_ctx *c,
                                                                  const char *path, size_t n)
{
    for (size_t i = 0; i < c->nroots; i++) {
        size_t len = c->root_len[i];
        const char *r = c->roots[i];
        if (len == 1) /* the root is "/" */
            return true;
        if (len <= n ? path[len] == '/' && memcmp(path, r, len) == 0
                     : n == c->root_dir_len[i] && strcmp(path, r) == 0)
            return true;
    }
    return false;
}

static void note_outside(struct rg_ctx *c, bool outside)
{
    if (atomic_load_explicit(&c->outside_last, memory_order_relaxed) != outside)
        atomic_store_explicit(&c->outside_last, outside, memory_order_relaxed);
}

/* Two ways to the same answer, each the cheaper for one side: strncmp per
 * root answers a read under a root alone, and one under no root then
 * needs strrchr for its directory anyway, with which under_a_root_at rules
 * most roots out by one byte. Reads come in runs on one side (a
 * compiler's headers, then its sources), so the way the last read needed
 * is taken first. */
bool rg_abs_outside_roots(struct rg_ctx *c, const char *path)
{
    size_t n;
    if (!atomic_load_explicit(&c->outside_last, memory_order_relaxed)) {
        if (rg_under_a_root(c, path))
            return false;
        note_outside(c, true);
        n = (size_t)(strrchr(path, '/') - path);
    } else {
        n = (size_t)(strrchr(path, '/') - path);
        if (under_a_root_at(c, path, n)) {
            note_outside(c, false);
            return false;
        }
    }
    uint64_t h = hash_dir(path, n);
    bool outside;
    return lookup(c, h, &outside) ? outside : look_up_dir(c, path, n, h);
}
