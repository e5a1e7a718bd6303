/* readguard mark: record files as read without reading them. A deliberate
 * escape hatch, so every use is logged like a refusal is. */
#include "cli/verbs.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/would.h"
#include "core/jrecord.h"
#include "core/report.h"
#include "os/clock.h"
static const char usage[] =
    "Usage: readguard mark [--session S] FILE...\n"
    "Record each FILE as read, as it is now, without reading it: the session may\n"
    "then overwrite it. This is a deliberate escape hatch; each use is written to\n"
    "the session log with \"decision\":\"mark\".\n"
    "\n" RG_SESSION_HELP_LIVE "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0; 1 if the table is full; 2 if there is no usable session or a\n"
    "FILE cannot be examined or is not a regular file.\n";

static void log_mark(const struct rg_header *h, const char *path, const struct rg_record *was,
                     const struct stat *st)
{
    char abs[PATH_MAX];
    if (!h->log_path[0])
        return;
    if (!realpath(path, abs))
        snprintf(abs, sizeof abs, "%s", path);
    char sid[RG_JOURNAL_ID_MAX];
    rg_journal_id(sid, h->created_ns, h->creator_pid);
    struct rg_log_line l = {
        .time_ns = rg_now_ns(),
        .pid = (int)getpid(),
        .prog = "readguard",
        .op = "mark",
        .call = "readguard mark",
        .path = abs,
        .decision = "mark",
        .reason = "marked",
        .recorded = was->found,
        .recorded_mtime_ns = was->mtime_ns,
        .recorded_size = was->size,
        .current_mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec,
        .current_size = st->st_size,
        .session = sid,
    };
    rg_cli_log(h->log_path, &l);
}

static int mark_one(struct rg_table *t, const char *path, void *arg)
{
    (void)arg;
    struct stat st;
    if (stat(path, &st) != 0) {
        rg_err("mark: '%s': %s", rg_shown(path), strerror(errno));
        return RG_EXIT_TROUBLE;
    }
    if (!S_ISREG(st.st_mode)) {
        rg_err("mark: '%s': not a regular file", rg_shown(path));
        return RG_EXIT_TROUBLE;
    }
    struct rg_entry *e = rg_table_find_or_add(t, st.st_dev, st.st_ino);
    if (!e) {
        rg_err("mark: '%s': the session table is full (%u files)", rg_shown(path), t->capacity);
        return RG_EXIT_NO;
    }
    struct rg_record was = rg_entry_load(t, e);
    struct rg_stamp now = {
        .mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec,
        .ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec,
        .size = st.st_size,
    };
    /* As a look would: a stamp tied with the session's own write is kept,
     * and a scan of unchanged bytes gives way, or a file grep -r saw stays
     * refused after the mark that was to unlock it. */
    if (!rg_entry_stamp(t, e, &now, false, rg_now_ns()))
        rg_entry_reread(t, e, &now);
    log_mark(t->hdr, path, &was, &st);
    if (!rg_would_under_a_root(t->hdr, path))
        rg_err("mark: '%s' is outside every root of the session: writes to it are not guarded, "
               "so the mark changes nothing",
               rg_shown(path));
    return RG_EXIT_OK;
}

int rg_cmd_mark(int argc, char **argv)
{
    struct rg_verb v = {"mark", usage, "", NULL, NULL, false};
    if (rg_verb_getopt(&v, argc, argv) != -1)
        return rg_verb_usage_error(&v);
    return rg_verb_each_file(&v, argc, argv, NULL, mark_one);
}
