#include "cli/where.h"
#include <fts.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_key(const void *a, const void *b)
{
    const struct rg_where *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int by_entry(const void *a, const void *b)
{
    const struct rg_where *x = a, *y = b;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* Names what it can; stops early once every inode has a name. */
static void walk(const struct rg_header *h, struct rg_where *w, size_t n)
{
    size_t nroots = 0, missing = n;
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r))
        nroots++;
    char **roots = calloc(nroots + 1, sizeof *roots);
    if (!roots)
        return;
    size_t i = 0;
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r))
        roots[i++] = (char *)r;
    FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
    FTSENT *e;
    while (fts && missing > 0 && (e = fts_read(fts))) {
        if (e->fts_info != FTS_F)
            continue;
        struct rg_where key = {.dev = e->fts_statp->st_dev, .ino = e->fts_statp->st_ino};
        struct rg_where *hit = bsearch(&key, w, n, sizeof *w, by_key);
        if (hit && !hit->path && (hit->path = strdup(e->fts_path)))
            missing--;
    }
    if (fts)
        fts_close(fts);
    free(roots);
}

size_t rg_where_find(const struct rg_table *t, struct rg_where **out)
{
    uint32_t used = rg_table_used(t);
    struct rg_where *w = calloc(used ? used : 1, sizeof *w);
    size_t n = 0;
    *out = w;
    if (!w)
        return 0;
    for (uint32_t i = 0; i < used; i++) {
        const struct rg_entry *e = &t->entries[i];
        if (e->ino == 0)
            continue; /* claimed, never keyed: a writer died or lost a race */
        w[n++] = (struct rg_where){.dev = e->dev, .ino = e->ino, .entry = i};
    }
    qsort(w, n, sizeof *w, by_key);
    walk(t->hdr, w, n);
    qsort(w, n, sizeof *w, by_entry);
    return n;
}

void rg_where_free(struct rg_where *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(w[i].path);
    free(w);
}
