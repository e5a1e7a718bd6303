/* Finding the user's session tables: by name in the table directories,
 * and by what live processes map. */

#include "cli/tables.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "core/procmaps.h"
#include "core/settings.h"
#include "core/table.h"
#include "os/members.h"

/* EPERM: the pid exists, owned by someone else, so a reused pid. That is
 * rare and errs on the side of keeping the table, which is harmless. */
bool rg_pid_alive(int32_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

/* Calls fn for each file of the table directories whose name want takes
 * (given the name and this user's "readguard-<uid>-"). */
static void each_table_file(bool (*want)(const char *name, const char *prefix),
                            void (*fn)(const char *path, void *arg), void *arg)
{
    /* READGUARD_DIR, when set, is where this user's sessions go, and the
     * only place to look: a sandbox or a test sees only its own. */
    const char *dir = getenv(RG_ENV_DIR);
    const char *dirs[] = {dir, "/dev/shm", getenv("XDG_RUNTIME_DIR"), "/tmp"};
    size_t ndirs = dir && *dir ? 1 : sizeof dirs / sizeof *dirs;
    struct stat seen[4];
    size_t nseen = 0;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "readguard-%u-", (unsigned)geteuid());
    for (size_t i = 0; i < ndirs; i++) {
        struct stat st;
        if (!dirs[i] || !*dirs[i] || stat(dirs[i], &st) != 0)
            continue;
        bool dup = false; /* $XDG_RUNTIME_DIR may well be $READGUARD_DIR */
        for (size_t j = 0; j < nseen; j++)
            dup |= seen[j].st_dev == st.st_dev && seen[j].st_ino == st.st_ino;
        if (dup)
            continue;
        seen[nseen++] = st;
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            char path[PATH_MAX];
            if (want(e->d_name, prefix) &&
                snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name) < (int)sizeof path)
                fn(path, arg);
        }
        closedir(d);
    }
}

void rg_each_session_file(void (*fn)(const char *path, void *arg), void *arg)
{
    each_table_file(rg_table_name, fn, arg);
}

/* The Claude Code hook names its table by the agent's session
 * (verbs/hook.c), in the same directories, with no uid in the name: in a
 * shared /tmp, another user's may be there. */
static bool hook_table_name(const char *name, const char *prefix)
{
    (void)prefix;
    return rg_hook_table_name(name);
}

struct mine {
    void (*fn)(const char *path, void *arg);
    void *arg;
};

static void if_mine(const char *path, void *arg)
{
    struct mine *m = arg;
    struct stat st;
    if (lstat(path, &st) == 0 && st.st_uid == geteuid())
        m->fn(path, m->arg);
}

void rg_each_hook_table(void (*fn)(const char *path, void *arg), void *arg)
{
    struct mine m = {fn, arg};
    each_table_file(hook_table_name, if_mine, &m);
}

void rg_each_table(void (*fn)(const char *path, void *arg), void *arg)
{
    rg_each_session_file(fn, arg);
    rg_each_hook_table(fn, arg);
}

struct running_ids {
    void (*fn)(const char *id, void *arg);
    void *arg;
    struct rg_exec_wait wait; /* for all the tables */
};

/* The id's are the same in every version of the table, so a session made
 * by another readguard (an upgrade while it ran) is still named. */
bool rg_table_session(const char *path, char id[RG_JOURNAL_ID_MAX], int32_t *owner)
{
    char h[offsetof(struct rg_header, owner_pid) + sizeof(int32_t)];
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
              pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h &&
              memcmp(h + offsetof(struct rg_header, magic), RG_MAGIC, sizeof RG_MAGIC - 1) == 0;
    if (fd >= 0)
        close(fd);
    if (!ok)
        return false;
    int64_t created;
    int32_t creator;
    uint32_t version;
    memcpy(&created, h + offsetof(struct rg_header, created_ns), sizeof created);
    memcpy(&creator, h + offsetof(struct rg_header, creator_pid), sizeof creator);
    memcpy(&version, h + offsetof(struct rg_header, version), sizeof version);
    rg_journal_id(id, created, creator);
    *owner = creator; /* another version's table: its creator was its owner */
    if (version == RG_TABLE_VERSION)
        memcpy(owner, h + offsetof(struct rg_header, owner_pid), sizeof *owner);
    return true;
}

static void running_id(const char *path, void *arg)
{
    struct running_ids *r = arg;
    char id[RG_JOURNAL_ID_MAX];
    int32_t owner;
    struct stat st;
    if (rg_table_session(path, id, &owner) &&
        (rg_pid_alive(owner) ||
         (stat(path, &st) == 0 &&
          rg_session_has_members(path, st.st_dev, st.st_ino, false, &r->wait))))
        r->fn(id, r->arg);
}

/* The path of one /proc/PID/maps line's file, if it is mapped shared and
 * writable (a session table is; libraries and most data files are not),
 * with its device and inode; NULL otherwise. */
static const char *shared_writable(const char *line, dev_t *dev, ino_t *ino)
{
    struct rg_mapping m;
    if (!rg_maps_line(line, &m) || strcmp(m.perms, "rw-s") != 0 || m.path[0] != '/' ||
        strstr(m.path, " (deleted)"))
        return NULL;
    *dev = (dev_t)m.dev;
    *ino = (ino_t)m.ino;
    return m.path;
}

struct mapped {
    struct running_ids *r;
    struct stat seen[64]; /* the tables already asked about */
    size_t nseen;
};

/* A table a live process maps: its session is running, wherever the
 * table lives. */
static void mapped_id(struct mapped *m, const char *line)
{
    struct stat st;
    const char *path = shared_writable(line, &st.st_dev, &st.st_ino);
    for (size_t j = 0; path && j < m->nseen; j++)
        if (m->seen[j].st_dev == st.st_dev && m->seen[j].st_ino == st.st_ino)
            return;
    if (!path)
        return;
    if (m->nseen < sizeof m->seen / sizeof *m->seen)
        m->seen[m->nseen++] = st;
    /* Only a regular file is opened to be asked: a device mapped so (a
     * GPU's, a sound card's) may act on an open. */
    struct stat now;
    char id[RG_JOURNAL_ID_MAX];
    int32_t creator;
    if (lstat(path, &now) == 0 && S_ISREG(now.st_mode) && now.st_dev == st.st_dev &&
        now.st_ino == st.st_ino && rg_table_session(path, id, &creator))
        m->r->fn(id, m->r->arg);
}

/* Every process of a session that has made a guarded call maps its table,
 * wherever it lives: a named session's, or one under another
 * READGUARD_DIR, is in none of the directories rg_each_session_file
 * lists. */
static void each_mapped_id(struct running_ids *r)
{
    struct mapped m = {.r = r};
    DIR *d = opendir("/proc");
    struct dirent *e;
    char maps[64], *line = NULL;
    size_t cap = 0;
    while (d && (e = readdir(d))) {
        long pid = strtol(e->d_name, NULL, 10);
        if (pid <= 0 || pid == getpid())
            continue;
        snprintf(maps, sizeof maps, "/proc/%ld/maps", pid);
        FILE *f = fopen(maps, "re");
        while (f && getline(&line, &cap, f) > 0) {
            line[strcspn(line, "\n")] = '\0';
            mapped_id(&m, line);
        }
        if (f)
            fclose(f);
    }
    free(line);
    if (d)
        closedir(d);
}

void rg_each_running_id(void (*fn)(const char *id, void *arg), void *arg)
{
    struct running_ids r = {fn, arg, {0}};
    rg_each_table(running_id, &r);
    each_mapped_id(&r);
}
