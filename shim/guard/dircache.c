#include "guard/dircache.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/content.h"
#include "core/text.h"
#include "os/procfd.h"
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
    int fd = rg_sys_openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return false;
    long n = rg_fd_path(fd, out, cap);
    rg_sys_close(fd);
    return n >= 0;
}

/* A fixed open-addressing table of directory hashes whose two low bits
 * hold the answer (below). No malloc and no lock: open(2) is
 * async-signal-safe, so this may run in a signal handler or in a child
 * forked mid-call. Two directories with one hash would share an answer; the
 * worst that can do is skip recording a read, never let a write through. */
#define SLOT_MASK (RG_DIRCACHE_SLOTS - 1)
#define MAX_PROBE 8
/* A cached directory is plain and lexically under no root. DIR_OUTSIDE: it
 * resolves outside every root, so every path in it lies outside, unless
 * DIR_HOLDS_ROOT: a root is a name in it, and the path may be that root.
 * The whole answer, so that a read in a known directory compares no root. */
#define DIR_OUTSIDE 1u
#define DIR_HOLDS_ROOT 2u
#define DIR_BITS 3ull

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
    h &= ~DIR_BITS;
    return h ? h : DIR_BITS + 1;
}

/* The cached bits for h, or -1: not cached. */
static inline __attribute__((always_inline)) int lookup(struct rg_ctx *c, uint64_t h)
{
    for (unsigned i = 0; i < MAX_PROBE; i++) {
        uint64_t v = atomic_load_explicit(&c->dircache[(h + i) & SLOT_MASK], memory_order_relaxed);
        if (v == 0)
            return -1;
        if ((v & ~DIR_BITS) == h)
            return (int)(v & DIR_BITS);
    }
    return -1;
}

static void remember(struct rg_ctx *c, uint64_t h, unsigned bits)
{
    for (unsigned i = 0; i < MAX_PROBE; i++) {
        uint64_t empty = 0;
        if (atomic_compare_exchange_strong_explicit(&c->dircache[(h + i) & SLOT_MASK], &empty,
                                                    h | bits, memory_order_relaxed,
                                                    memory_order_relaxed) ||
            (empty & ~DIR_BITS) == h)
            return;
    }
    /* Full around this hash: the directory is looked up again next time. */
}

/* Is path[0, n), followed by the '/' at n, lexically under a root? With
 * the '/' known, a root of length L <= n is ruled out by the byte at L. */
static bool dir_under_a_root(const struct rg_ctx *c, const char *path, size_t n)
{
    for (size_t i = 0; i < c->nroots; i++) {
        size_t len = c->root_len[i];
        if (len == 1 || (len <= n && path[len] == '/' && memcmp(path, c->roots[i], len) == 0))
            return true; /* len == 1: the root is "/" */
    }
    return false;
}

/* Is a root a name right in path[0, n) (its last '/' at n)? */
static bool dir_holds_a_root(const struct rg_ctx *c, const char *path, size_t n)
{
    for (size_t i = 0; i < c->nroots; i++)
        if (c->root_dir_len[i] == n && memcmp(path, c->roots[i], n) == 0)
            return true;
    return false;
}

/* A directory the cache does not know yet, lexically under no root: out
 * of line, with its two PATH_MAX buffers, so that a read answered by the
 * roots or by the cache needs no large frame. */
__attribute__((noinline)) static unsigned look_up_dir(struct rg_ctx *c, const char *path, size_t n,
                                                      uint64_t h)
{
    /* Only plain directories are answered, so only they are ever cached, and
     * a hit needs no second look at the path. */
    if (n >= PATH_MAX || !lexically_plain(path, n + 1))
        return 0;
    char dir[PATH_MAX], real[PATH_MAX];
    memcpy(dir, path, n);
    dir[n ? n : 1] = '\0';
    if (n == 0)
        dir[0] = '/';
    int saved = errno; /* readlink's: a read's open answers with its own */
    unsigned bits = 0;
    if (resolve_dir(dir, real, sizeof real) && !rg_under_a_root(c, real))
        bits = DIR_OUTSIDE | (dir_holds_a_root(c, path, n) ? DIR_HOLDS_ROOT : 0);
    errno = saved;
    remember(c, h, bits);
    return bits;
}

/* Is a path in the directory path[0, n) outside every root? It is
 * lexically under none. */
static inline __attribute__((always_inline)) bool dir_outside(struct rg_ctx *c, const char *path,
                                                              size_t n)
{
    uint64_t h = hash_dir(path, n);
    int bits = lookup(c, h);
    return (bits >= 0 ? (unsigned)bits : look_up_dir(c, path, n, h)) & DIR_OUTSIDE;
}

bool rg_dir_outside_roots(struct rg_ctx *c, const char *path)
{
    return dir_outside(c, path, (size_t)(strrchr(path, '/') - path));
}

static void note_outside(struct rg_ctx *c, bool outside)
{
    if (atomic_load_explicit(&c->outside_last, memory_order_relaxed) != outside)
        atomic_store_explicit(&c->outside_last, outside, memory_order_relaxed);
}

/* After a read that was not outside: strncmp per root answers a read
 * under a root alone, without strrchr, the hash and the probe. */
__attribute__((noinline)) static bool roots_first(struct rg_ctx *c, const char *path)
{
    if (rg_under_a_root(c, path))
        return false;
    note_outside(c, true);
    return dir_outside(c, path, (size_t)(strrchr(path, '/') - path));
}

/* A directory not (known) outside, or one that holds a root. */
__attribute__((noinline)) static bool not_plainly_outside(struct rg_ctx *c, const char *path,
                                                          unsigned bits)
{
    bool outside = (bits & DIR_OUTSIDE) && !rg_under_a_root(c, path);
    note_outside(c, outside);
    return outside;
}

/* A directory the cache does not know, after a read outside: out of line,
 * so that a read answered by the cache saves no more registers. */
__attribute__((noinline)) static unsigned unknown_dir(struct rg_ctx *c, const char *path, size_t n,
                                                      uint64_t h)
{
    return dir_under_a_root(c, path, n) ? 0 : look_up_dir(c, path, n, h);
}

/* After a read outside: the directory's cached bits alone, which need no
 * root compared (the roots were, when it was first seen). A directory under
 * a root is answered by the roots, and not cached: the cache holds what
 * lies outside them. */
__attribute__((noinline)) static bool dir_first(struct rg_ctx *c, const char *path)
{
    size_t n = (size_t)(strrchr(path, '/') - path);
    uint64_t h = hash_dir(path, n);
    int bits = lookup(c, h);
    if (bits == DIR_OUTSIDE)
        return true;
    if (bits < 0)
        bits = (int)unknown_dir(c, path, n, h);
    return not_plainly_outside(c, path, (unsigned)bits);
}

/* Reads come in runs on one side of the roots (a compiler's headers, then
 * its sources), so the way the last read needed is taken first. Both give
 * the same answer. Each way is a tail call, with its own frame. */
bool rg_abs_outside_roots(struct rg_ctx *c, const char *path)
{
    if (atomic_load_explicit(&c->outside_last, memory_order_relaxed))
        return dir_first(c, path);
    return roots_first(c, path);
}
