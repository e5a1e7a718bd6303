#include "cli/journal/objects.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/journal/settle.h"
#include "os/clock.h"
/* Puts back what a prune killed between its move aside and its judgement
 * left (the name's part after RG_JOURNAL_ASIDE): a session may name it. */
static void put_back(const char *objects, const char *name)
{
    char aside[PATH_MAX + 300], p[PATH_MAX + 300];
    snprintf(aside, sizeof aside, "%s/%s", objects, name);
    snprintf(p, sizeof p, "%s/%s", objects, name + strlen(RG_JOURNAL_ASIDE));
    if (renameat2(AT_FDCWD, aside, AT_FDCWD, p, RENAME_NOREPLACE) != 0 && errno == EEXIST)
        unlink(aside);
}

/* What one lstat says of an object: its weight (a symlink's is nothing
 * worth counting, its target's is) and when it was kept. A linked name
 * was kept when it got its name, which its ctime tells: a settled one's
 * symlink was made then, and a symbolic link the journal keeps (a removed
 * one) has the mtime of its making, maybe years old. */
void rg_jobj_look(struct rg_jobj *o, const char *objects)
{
    char p[PATH_MAX + 128];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", objects, o->hex);
    if (lstat(p, &st) != 0)
        return;
    bool linked = rg_jobject_is_linked(o->hex);
    o->bytes = rg_disk_bytes(&st);
    o->kept_ns = linked ? rg_timespec_ns(&st.st_ctim) : rg_timespec_ns(&st.st_mtim);
    o->link = linked && S_ISLNK(st.st_mode);
    o->unsettled = linked && S_ISREG(st.st_mode);
}

static struct rg_jobj *obj_add(struct rg_jobj **objs, const char *name)
{
    struct rg_jobj *o = calloc(1, sizeof *o);
    if (!o)
        abort();
    snprintf(o->hex, sizeof o->hex, "%s", name);
    HASH_ADD_STR(*objs, hex, o);
    return o;
}

/* Every object in objects/, each looked at once: the counts and the sweep
 * then ask the table, not the file system. A settled linked name, most of
 * a journal, is not looked at: the directory says it is a symlink, which
 * weighs nothing, and the sweep looks before it removes one. What a prune
 * killed between its move aside and its judgement left is put back (a
 * session may name it) and judged by the next prune. */
struct rg_jobj *rg_jobjs_list(const char *objects)
{
    struct rg_jobj *objs = NULL;
    DIR *d = opendir(objects);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, RG_JOURNAL_PIN) == 0)
            continue;
        if (strncmp(e->d_name, RG_JOURNAL_ASIDE, strlen(RG_JOURNAL_ASIDE)) == 0) {
            put_back(objects, e->d_name);
            continue;
        }
        struct rg_jobj *o = obj_add(&objs, e->d_name);
        o->listed = true;
        if (e->d_type == DT_LNK && rg_jobject_is_linked(o->hex))
            o->link = true;
        else
            rg_jobj_look(o, objects);
    }
    if (d)
        closedir(d);
    return objs;
}

static bool unsettled(const char *object, void *arg)
{
    struct rg_jobj *o;
    HASH_FIND_STR((struct rg_jobj *)arg, object, o);
    return o && o->unsettled;
}

/* Settles what the listing found unsettled (a linked name kept since holds
 * until the next prune), and looks again at what became a symlink. */
void rg_jobjs_settle(const char *dir, const struct rg_jlist *l, const char *objects,
                     struct rg_jobj *objs)
{
    rg_jsettle(dir, l, unsettled, objs);
    for (struct rg_jobj *o = objs; o; o = o->hh.next)
        if (o->unsettled)
            rg_jobj_look(o, objects);
}

/* The object named name; one kept after the listing is looked at now. */
static struct rg_jobj *obj_of(struct rg_jobj **objs, const char *objects, const char *name)
{
    struct rg_jobj *o;
    HASH_FIND_STR(*objs, name, o);
    if (o)
        return o;
    o = obj_add(objs, name);
    rg_jobj_look(o, objects);
    return o;
}

/* One session's (pass's) reference to name, counted once. A settled
 * linked name leads to the object holding its bytes. */
static void count_one(struct rg_jobj **objs, const char *objects, const char *name, size_t pass,
                      int delta, int64_t *total)
{
    struct rg_jobj *o = obj_of(objs, objects, name);
    if (o->seen == pass)
        return;
    o->seen = pass;
    if ((o->refs == 0) != (o->refs + delta == 0))
        *total += delta > 0 ? o->bytes : -o->bytes;
    o->refs += delta;
    if (o->link && !o->to[0]) {
        char p[PATH_MAX + 128];
        snprintf(p, sizeof p, "%s/%s", objects, name);
        ssize_t n = readlink(p, o->to, sizeof o->to - 1);
        o->to[n > 0 ? n : 0] = '\0';
        o->link = n > 0;
    }
    if (o->link && rg_jobject_valid(o->to) && !rg_jobject_is_linked(o->to))
        count_one(objs, objects, o->to, pass, delta, total);
}

/* Counts, for each object, the kept sessions that name it: records
 * [from, to) are one session's. */
void rg_jobjs_count(struct rg_jobj **objs, const struct rg_jlist *l, size_t from, size_t to,
                    const char *objects, int delta, int64_t *total)
{
    size_t pass = 2 * (from + 1) + (delta < 0); /* a session names an object once */
    for (size_t i = from; i < to; i++)
        if (l->r[i].object && rg_jobject_valid(l->r[i].object))
            count_one(objs, objects, l->r[i].object, pass, delta, total);
}

/* Freed through their own list: the hash's links go with HASH_CLEAR. */
void rg_jobjs_free(struct rg_jobj *objs)
{
    struct rg_jobj *o, *tmp;
    for (o = objs; o; o = tmp) {
        tmp = o->hh.next;
        o->next = tmp;
    }
    struct rg_jobj *all = objs;
    HASH_CLEAR(hh, objs);
    for (o = all; o; o = tmp) {
        tmp = o->next;
        free(o);
    }
}
