#include "cli/undo/left.h"
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/pick.h"
#include "core/table.h"
#include "os/session.h"

struct wanted {
    const char *id;
    bool found;
};

static void is_wanted(const char *id, void *arg)
{
    struct wanted *w = arg;
    w->found |= strcmp(id, w->id) == 0;
}

/* Finds session id's table and whether the session still runs: a named
 * session's table may lie where no listing looks, but a live process of
 * it maps it. */
static void look_up(struct rg_left_cache *c, const char *id)
{
    snprintf(c->id, sizeof c->id, "%s", id);
    struct rg_session_ref ref;
    rg_session_resolve(c->given ? c->given : id, &ref);
    snprintf(c->table, sizeof c->table, "%s", ref.table ? ref.table : "");
    struct rg_table t;
    if (c->table[0] && !rg_session_attach(c->table, &t)) {
        c->running = rg_session_running(c->table, t.hdr, &c->wait);
        rg_session_detach(&t);
        return;
    }
    c->table[0] = '\0';
    struct wanted w = {id, false};
    rg_each_running_id(is_wanted, &w);
    c->running = w.found;
}

/* The table stamps each file the session writes as the write leaves it
 * (the restamp at close), by inode: a file there now that it does not
 * record so was made or changed by someone else. A write the kill cut
 * short of its restamp reads as changed: undo then asks for --force
 * rather than guess. */
static enum rg_left by_table(const char *table, const struct stat *st)
{
    struct rg_table t;
    if (rg_session_attach(table, &t))
        return RG_LEFT_UNKNOWN;
    struct rg_record r = rg_entry_load(&t, rg_table_find(&t, st->st_dev, st->st_ino));
    int64_t mtime = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    bool same = r.found && r.mtime_ns == mtime && r.size == st->st_size;
    rg_session_detach(&t);
    return same ? RG_LEFT_AS_IS : RG_LEFT_CHANGED;
}

enum rg_left rg_left_judge(struct rg_left_cache *c, const char *id, const char *abs)
{
    struct stat st;
    /* Restoring a file that is gone loses no byte, whoever removed it. */
    if (lstat(abs, &st) != 0)
        return RG_LEFT_AS_IS;
    if (strcmp(c->id, id) != 0)
        look_up(c, id);
    if (c->running)
        return RG_LEFT_AS_IS;
    return c->table[0] ? by_table(c->table, &st) : RG_LEFT_UNKNOWN;
}
