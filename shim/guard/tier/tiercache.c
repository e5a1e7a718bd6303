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

/* The directories' answer for abs, whose directory is abs[0, n). */
static enum rg_tier dirs_tier(struct rg_tiercache *t, const struct rg_rules *r, const char *abs,
                              size_t n)
{
    if (n == 0 || n >= sizeof t->dir || r->root_index >= RG_TIERCACHE_ROOTS || !take(t))
        return walk(r, abs);
    if (t->len != n || memcmp(t->dir, abs, n) != 0) {
        memcpy(t->dir, abs, n);
        t->len = n;
        memset(t->tier, 0, sizeof t->tier);
    }
    if (!t->tier[r->root_index])
        t->tier[r->root_index] = (uint8_t)(walk(r, abs) + 1);
    enum rg_tier d = (enum rg_tier)(t->tier[r->root_index] - 1);
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
    enum rg_tier dirs = dirs_tier(t, r, abs, n);
    const struct rg_ignore_compiled *cr = compiled(t, r);
    return cr ? rg_ignore_file_tier_compiled(cr, r->root, r->root_index, abs, dirs)
              : rg_ignore_file_tier(r->list, r->len, r->root, r->root_index, abs, dirs);
}
