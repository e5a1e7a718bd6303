#include "os/exec_target.h"
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hot.h"
#include "core/progkind.h"
#include "os/sys.h"
/* Each slot packs the top bits of the key's hash with the verdict in the low
 * byte (kind + 1, so 0 is empty, and the native bit). A lost update or an
 * evicted slot only means the headers are read again. */
#define SLOTS RG_EXEC_SLOTS
#define PROBE 4u
#define VERDICT_BITS 8u
#define NATIVE_BIT 0x80u

/* Slot by slot, each an atomic word: a thread of the process may be reading
 * local meanwhile, and each slot is whole in itself. */
static void copy_slots(struct rg_exec_slots *to, struct rg_exec_slots *from)
{
    for (unsigned i = 0; i < SLOTS; i++)
        atomic_store_explicit(&to->slot[i],
                              atomic_load_explicit(&from->slot[i], memory_order_relaxed),
                              memory_order_relaxed);
}

void rg_exec_cache_share(struct rg_exec_cache *x)
{
    struct rg_exec_slots *c = atomic_load_explicit(&x->shared, memory_order_acquire);
    if (c) {
        /* What the children learnt since the last fork, copied for the next:
         * nothing to write, in a shell that runs the same programs again. */
        uint64_t gen = atomic_load_explicit(&c->gen, memory_order_acquire);
        if (gen != atomic_load_explicit(&x->local.gen, memory_order_relaxed)) {
            copy_slots(&x->local, c);
            atomic_store_explicit(&x->local.gen, gen, memory_order_relaxed);
        }
        return;
    }
    void *m = mmap(NULL, sizeof(struct rg_exec_slots), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return;
    c = m;
    copy_slots(c, &x->local);
    atomic_store_explicit(&x->shared, c, memory_order_release);
}

RG_START_TEXT static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

RG_START_TEXT static uint64_t key_of(const struct stat *st)
{
    uint64_t h = mix(0, (uint64_t)st->st_dev);
    h = mix(h, (uint64_t)st->st_ino);
    h = mix(h, (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec);
    h = mix(h, (uint64_t)st->st_ctim.tv_sec * 1000000000ull + (uint64_t)st->st_ctim.tv_nsec);
    h = mix(h, (uint64_t)st->st_size);
    return h & ~(uint64_t)((1u << VERDICT_BITS) - 1);
}

/* Probes wrap around the end of the table. */
RG_START_TEXT static size_t slot_at(uint64_t key, unsigned i)
{
    return ((key >> VERDICT_BITS) + i) % SLOTS;
}

RG_START_TEXT static bool probe(struct rg_exec_slots *c, uint64_t key, struct rg_target *t)
{
    for (unsigned i = 0; i < PROBE; i++) {
        uint64_t v = atomic_load_explicit(&c->slot[slot_at(key, i)], memory_order_relaxed);
        if (v && (v & ~(uint64_t)0xff) == key) {
            t->kind = (enum rg_prog)((v & 0x7f) - 1);
            t->native = v & NATIVE_BIT;
            return true;
        }
    }
    return false;
}

RG_START_TEXT static bool cache_get(struct rg_exec_cache *x, uint64_t key, struct rg_target *t)
{
    if (!x)
        return false;
    struct rg_exec_slots *c = atomic_load_explicit(&x->shared, memory_order_acquire);
    return probe(&x->local, key, t) || (c && probe(c, key, t));
}

static void cache_put(struct rg_exec_cache *x, uint64_t key, const struct rg_target *t)
{
    if (!x)
        return;
    struct rg_exec_slots *c = atomic_load_explicit(&x->shared, memory_order_acquire);
    c = c ? c : &x->local;
    uint64_t v = key | ((uint64_t)t->kind + 1) | (t->native ? NATIVE_BIT : 0);
    unsigned i = 0;
    for (uint64_t old = 0; i < PROBE; i++, old = 0)
        if (atomic_compare_exchange_strong_explicit(&c->slot[slot_at(key, i)], &old, v,
                                                    memory_order_relaxed, memory_order_relaxed))
            break;
    if (i == PROBE)
        atomic_store_explicit(&c->slot[slot_at(key, 0)], v, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->gen, 1, memory_order_release);
}

/* Does the loader run this program in secure mode (AT_SECURE), ignoring
 * LD_PRELOAD? Only when the bit changes who it runs as. */
RG_START_TEXT static bool secure_exec(const struct stat *st)
{
    return ((st->st_mode & S_ISUID) && st->st_uid != rg_sys_geteuid()) ||
           ((st->st_mode & S_ISGID) && (st->st_mode & S_IXGRP) && st->st_gid != getegid());
}

#define HEAD 4096

static void look_file(int fd, struct rg_target *t, int depth);

/* x: the cache, for the program exec'd only (NULL for an interpreter). */
RG_START_TEXT static void look_path(struct rg_exec_cache *x, int dirfd, const char *path,
                                    int at_flags, struct rg_target *t, int depth)
{
    struct stat st;
    /* The shim's own entry to the kernel: fstatat would be bound again in
     * every forked child that execs (core/envp.c says why that matters). */
    if (rg_sys_fstatat(dirfd, path, &st, at_flags) != 0 || !S_ISREG(st.st_mode))
        return;
    t->dev = (uint64_t)st.st_dev;
    t->ino = (uint64_t)st.st_ino;
    if (secure_exec(&st)) {
        t->kind = RG_PROG_SETID;
        return;
    }
    uint64_t key = key_of(&st);
    if (cache_get(x, key, t))
        return;
    /* fexecve: the descriptor itself (pread leaves its offset alone). */
    bool own = !((at_flags & AT_EMPTY_PATH) && !*path);
    int nofollow = (at_flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0;
    int fd =
        own ? rg_sys_openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | nofollow, 0) : dirfd;
    if (fd < 0)
        return; /* execute-only: the loader can read it, readguard cannot */
    look_file(fd, t, depth);
    if (own)
        rg_sys_close(fd);
    cache_put(x, key, t);
}

static void look_file(int fd, struct rg_target *t, int depth)
{
    unsigned char head[HEAD];
    ssize_t n = pread(fd, head, sizeof head, 0);
    if (n <= 0)
        return;
    struct rg_elf_look l = rg_elf_look(head, (size_t)n);
    t->kind = l.kind;
    t->native = l.native;
    if (l.kind == RG_PROG_SCRIPT) {
        char interp[PATH_MAX];
        t->kind = RG_PROG_UNKNOWN;
        /* The kernel follows four levels of interpreters; so do we. */
        if (depth < 4 && rg_script_interp(head, (size_t)n, interp, sizeof interp) &&
            interp[0] == '/') {
            struct rg_target it = {RG_PROG_UNKNOWN, false, 0, 0};
            look_path(NULL, AT_FDCWD, interp, 0, &it, depth + 1);
            t->kind = it.kind;
            t->native = it.native;
        }
        return;
    }
    if (l.kind != RG_PROG_GLIBC)
        return;
    char interp[PATH_MAX];
    if (l.interp_len == 0 || l.interp_len >= sizeof interp) {
        t->kind = RG_PROG_OTHER_LD;
        return;
    }
    if (l.interp_off + l.interp_len <= (uint64_t)n)
        memcpy(interp, head + l.interp_off, l.interp_len);
    else if (pread(fd, interp, l.interp_len, (off_t)l.interp_off) != (ssize_t)l.interp_len)
        return (void)(t->kind = RG_PROG_UNKNOWN);
    interp[l.interp_len] = '\0';
    t->kind = rg_interp_kind(interp);
}

RG_START_TEXT void rg_exec_target(struct rg_exec_cache *x, int dirfd, const char *path,
                                  int at_flags, struct rg_target *t)
{
    t->kind = RG_PROG_UNKNOWN;
    t->native = false;
    t->dev = t->ino = 0;
    if (path)
        look_path(x, dirfd, path, at_flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW), t, 0);
}

bool rg_exec_search(const char *file, char *out, unsigned long cap)
{
    size_t flen = strlen(file);
    if (!flen)
        return false;
    if (strchr(file, '/')) {
        if (flen >= cap)
            return false;
        memcpy(out, file, flen + 1);
        return true;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    for (const char *p = path;; p++) {
        const char *e = strchrnul(p, ':');
        size_t dlen = (size_t)(e - p);
        if (dlen + 1 + flen < cap) {
            memcpy(out, p, dlen);
            size_t o = dlen;
            if (dlen)
                out[o++] = '/';
            memcpy(out + o, file, flen + 1);
            struct stat st;
            if (rg_sys_fstatat(AT_FDCWD, out, &st, 0) == 0 && S_ISREG(st.st_mode) &&
                (st.st_mode & 0111))
                return true;
        }
        if (!*e)
            return false;
        p = e;
    }
}
