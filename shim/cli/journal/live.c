#include "cli/journal/live.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/pick.h"
#include "core/jrecord.h"
/* sessions/ID.table: a symbolic link to the table. Not an index
 * (list.c reads only *.jsonl), and a link weighs nothing. */
#define NOTE ".table"

void rg_jlive_note(const char *dir, const char *id, const char *table)
{
    char note[PATH_MAX + 128], tmp[PATH_MAX + 160], had[PATH_MAX];
    snprintf(note, sizeof note, "%s/" RG_JOURNAL_SESSIONS "/%s" NOTE, dir, id);
    ssize_t n = readlink(note, had, sizeof had - 1);
    if (n > 0 && (size_t)n == strlen(table) && memcmp(had, table, (size_t)n) == 0)
        return;
    /* Made aside and renamed over: a prune reading the note never sees
     * none where there was one. A hidden name, which no listing takes. */
    snprintf(tmp, sizeof tmp, "%s/" RG_JOURNAL_SESSIONS "/.%s" NOTE ".%d", dir, id, (int)getpid());
    if (symlink(table, tmp) == 0 && rename(tmp, note) != 0)
        unlink(tmp);
}

struct ids {
    void (*fn)(const char *id, void *arg);
    void *arg;
};

static void left_table(const char *path, void *arg)
{
    struct ids *t = arg;
    char id[RG_JOURNAL_ID_MAX];
    int32_t owner;
    if (rg_table_session(path, id, &owner))
        t->fn(id, t->arg);
}

/* The session the note named name (ID.table, at path) stands for, if its
 * table is still there; the note goes once it is not. */
static void noted_table(const char *path, const char *name, struct ids *t)
{
    char table[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    int32_t owner;
    size_t len = strlen(name) - strlen(NOTE);
    ssize_t n = readlink(path, table, sizeof table - 1);
    if (n < 0 && errno == ENOENT)
        return;
    table[n > 0 ? n : 0] = '\0';
    if (n > 0 && rg_table_session(table, id, &owner) && strlen(id) == len &&
        strncmp(id, name, len) == 0)
        t->fn(id, t->arg);
    else
        unlink(path);
}

static void noted_tables(const char *dir, struct ids *t)
{
    char sessions[PATH_MAX], path[PATH_MAX + 300];
    snprintf(sessions, sizeof sessions, "%s/" RG_JOURNAL_SESSIONS, dir);
    DIR *d = opendir(sessions);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || n <= strlen(NOTE) ||
            strcmp(e->d_name + n - strlen(NOTE), NOTE) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", sessions, e->d_name);
        noted_table(path, e->d_name, t);
    }
    if (d)
        closedir(d);
}

void rg_jlive_each(const char *dir, void (*fn)(const char *id, void *arg), void *arg)
{
    struct ids t = {fn, arg};
    rg_each_running_id(fn, arg);
    rg_each_session_file(left_table, &t);
    noted_tables(dir, &t);
}
