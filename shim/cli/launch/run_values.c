/* readguard run's option values: each checked, and stored in the new
 * session's settings or refused with the sentence the user sees. What the
 * command line looks like is run_opts.c's. */
#include "cli/launch/run_values.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/shown.h"
#include "core/text.h"
#include "os/gitroot.h"
#include "os/logfile.h"
#include "os/session.h"
int rg_run_add_root(struct rg_run_opts *o, const char *dir)
{
    struct stat st;
    size_t i = o->s.nroots;
    if (i >= sizeof o->roots / sizeof *o->roots) {
        rg_err("too many --root options (at most %zu)", i);
        return -1;
    }
    if (!realpath(dir ? dir : ".", o->root_buf[i])) {
        if (dir)
            rg_err("--root '%s': %s", rg_shown(dir), strerror(errno));
        else
            rg_err("the current directory, the default root, cannot be used (%s): "
                   "give --root DIR",
                   strerror(errno));
        return -1;
    }
    if (!dir) {
        char cwd[PATH_MAX];
        memcpy(cwd, o->root_buf[i], strlen(o->root_buf[i]) + 1);
        rg_default_root(cwd, o->root_buf[i], sizeof o->root_buf[i]);
    }
    if (stat(o->root_buf[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
        rg_err("--root '%s': Not a directory", rg_shown(dir ? dir : "."));
        return -1;
    }
    o->roots[o->s.nroots++] = o->root_buf[i];
    return 0;
}

int rg_run_set_log(struct rg_run_opts *o, const char *file, const char *opt)
{
    char cwd[PATH_MAX];
    if (!*file || !getcwd(cwd, sizeof cwd) ||
        !rg_path_join(o->log_buf, sizeof o->log_buf, cwd, file)) {
        rg_err("%s '%s': not a usable path", opt, rg_shown(file));
        return -1;
    }
    /* Only readguard's own state directory is made on demand (logfile.h). */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->log_buf);
    *strrchr(dir, '/') = '\0';
    struct stat st;
    const char *why = NULL;
    if (rg_log_in_state_dir(o->log_buf))
        why = NULL;
    else if (stat(dir[0] ? dir : "/", &st) != 0)
        why = errno == ENOENT ? "does not exist" : strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "is not a directory";
    if (why) {
        rg_err("%s '%s': the directory '%s' %s", opt, rg_shown(file), rg_shown(dir), why);
        return -1;
    }
    /* Else accepted, and told only at the first line the session logs. */
    if (stat(o->log_buf, &st) == 0 && S_ISDIR(st.st_mode)) {
        rg_err("%s '%s': is a directory: name the log file", opt, rg_shown(file));
        return -1;
    }
    o->s.log_path = o->log_buf;
    return 0;
}

int rg_run_add_ignore(struct rg_run_opts *o, const char *pattern)
{
    if (o->nignores >= RG_RUN_MAX_IGNORES) {
        rg_err("too many --ignore options (at most %d)", RG_RUN_MAX_IGNORES);
        return -1;
    }
    if (!*pattern) {
        rg_err("--ignore: the pattern is empty");
        return -1;
    }
    o->ignores[o->nignores++] = pattern;
    return 0;
}

int rg_run_set_read_ttl(struct rg_run_opts *o, const char *secs)
{
    char *end;
    errno = 0;
    double v = strtod(secs, &end);
    /* Up to ten years, so that nanoseconds stay far from overflowing. */
    /* Under a nanosecond it would be stored as 0: "reads never expire". */
    if (end == secs || *end || errno || !(v * 1e9 >= 1) || v > 315360000.0) {
        rg_err("--read-ttl '%s': expected a positive number of seconds, at most 10 years "
               "(315360000)",
               secs);
        return -1;
    }
    o->s.read_ttl_ns = (int64_t)(v * 1e9 + 0.5);
    return 0;
}

int rg_run_set_scan_files(struct rg_run_opts *o, const char *n)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(n, &end, 10);
    if (end == n || *end || errno || *n == '-' || v > RG_SCAN_FILES_MAX) {
        rg_err("--scan-files '%s': expected a number of files from 0 to %u", n, RG_SCAN_FILES_MAX);
        return -1;
    }
    o->s.scan_files = (uint32_t)v;
    return 0;
}

int rg_run_set_scan_window(struct rg_run_opts *o, const char *secs)
{
    char *end;
    errno = 0;
    double v = strtod(secs, &end);
    if (end == secs || *end || errno || !(v >= 0.001) || v > 3600.0) {
        rg_err("--scan-window '%s': expected a number of seconds from 0.001 to 3600", secs);
        return -1;
    }
    o->s.scan_window_ns = (int64_t)(v * 1e9 + 0.5);
    return 0;
}

int rg_run_pack_ignores(struct rg_run_opts *o)
{
    char err[PATH_MAX + 128];
    struct rg_ignore_list l = {o->ignore_buf, sizeof o->ignore_buf, 0, 0};
    if (rg_session_ignores(&l, &o->s, o->ignores, o->nignores, err, sizeof err) < 0) {
        rg_err("%s", err);
        return -1;
    }
    o->s.ignores = l.buf;
    o->s.ignores_len = l.len;
    o->s.nignores = l.count;
    return 0;
}

int rg_run_env_journal_max_file(struct rg_run_opts *o)
{
    const char *v = getenv(RG_ENV_JOURNAL_MAX_FILE);
    if (o->s.journal_max_file || !v || !*v)
        return 0;
    return rg_run_set_journal_max_file(o, v, RG_ENV_JOURNAL_MAX_FILE);
}

int rg_run_set_mode(struct rg_run_opts *o, const char *name)
{
    int mode = rg_mode_parse(name);
    if (mode < 0) {
        rg_err("--mode '%s': expected 'enforce' or 'warn'", name);
        return -1;
    }
    o->s.mode = (enum rg_mode)mode;
    return 0;
}

int rg_run_set_journal_max_file(struct rg_run_opts *o, const char *size, const char *opt)
{
    if ((o->s.journal_max_file = rg_size_parse(size)) <= 0) {
        rg_err("%s '%s': expected a positive size in bytes, with K, M or G (--no-journal "
               "keeps nothing)",
               opt, size);
        return -1;
    }
    return 0;
}

int rg_run_set_capacity(struct rg_run_opts *o, const char *n)
{
    if (!(o->s.capacity = rg_capacity_parse(n))) {
        rg_err("--capacity '%s': expected a number of files from %u to %u (k and M "
               "count thousands and millions)",
               n, RG_MIN_CAPACITY, RG_MAX_CAPACITY);
        return -1;
    }
    return 0;
}
