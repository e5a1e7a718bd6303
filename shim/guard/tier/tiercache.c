#include "guard/tier/tiercache.h"
#include <string.h>

static bool take(struct rg_tiercache *t)
{
    return atomic_exchange_explicit(&t->lock, 1, memory_order_acquire) == 0;
}

static void give(struct rg_tiercache *t)
{
    atomic_store_explicit(&t->lock, 0, memory_order_release);
}

static enum rg_tier walk(const struct rg_rules *r, const char *abs)
{
    return rg_ignore_dirs_tier(r->list, r->len, r->root, r->root_index, abs);
}

/* The directories' answer for abs, whose directory is abs[0, n); and into
 * *freed, the compiled rules' cr answer for its files (rg_ignore_dir_freed),
 * or -1 where the cache had none to give. */
static enum rg_tier dirs_tier(struct rg_tiercache *t, const struct rg_rules *r,
                              const struct rg_ignore_compiled *cr, const char *abs, size_t n,
                              int *freed)
{
    *freed = -1;
    if (n == 0 || n >= sizeof t->dir || r->root_index >= RG_TIERCACHE_ROOTS || !take(t))
        return walk(r, abs);
    if (t->len != n || memcmp(t->dir, abs, n) != 0) {
        memcpy(t->dir, abs, n);
        t->len = n;
        memset(t->tier, 0, sizeof t->tier);
        memset(t->freed, 0, sizeof t->freed);
    }
    unsigned i = r->root_index;
    if (!t->tier[i])
        t->tier[i] = (uint8_t)(walk(r, abs) + 1);
    if (cr && !t->freed[i])
        t->freed[i] = (uint8_t)(rg_ignore_dir_freed(cr, r->root, abs, n) + 1);
    if (cr)
        *freed = t->freed[i] - 1;
    enum rg_tier d = (enum rg_tier)(t->tier[i] - 1);
    give(t);
    return d;
}

/* r's rules compiled, or NULL while they are not. */
static const struct rg_ignore_compiled *compiled(struct rg_tiercache *t, const struct rg_rules *r)
{
    int s = atomic_load_explicit(&t->compiled_state, memory_order_acquire);
    if (s == 0 && atomic_compare_exchange_strong_explicit(
                      &t->compiled_state, &s, 1, memory_order_acquire, memory_order_relaxed)) {
        s = rg_ignore_compile(r->list, r->len, &t->compiled) ? 2 : 3;
        atomic_store_explicit(&t->compiled_state, s, memory_order_release);
    }
    return s == 2 && t->compiled.list == r->list && t->compiled.len == r->len ? &t->compiled : NULL;
}

enum rg_tier rg_tiercache_tier(struct rg_tiercache *t, const struct rg_rules *r, const char *abs)
{
    const char *slash = strrchr(abs, '/');
    size_t n = slash ? (size_t)(slash - abs) : 0;
    const struct rg_ignore_compiled *cr = compiled(t, r);
    int freed;
    enum rg_tier dirs = dirs_tier(t, r, cr, abs, n, &freed);
    if (!cr)
        return rg_ignore_file_tier(r->list, r->len, r->root, r->root_index, abs, dirs);
    return freed < 0
               ? rg_ignore_file_tier_compiled(cr, r->root, r->root_index, abs, dirs)
               : rg_ignore_file_tier_compiled_at(cr, r->root, r->root_index, abs, dirs, n, freed);
}
