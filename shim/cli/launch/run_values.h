/* readguard run's option values, one function each: 0, with the value in
 * o's settings, or -1 after telling the user what was expected. */
#ifndef RG_CLI_RUN_VALUES_H
#define RG_CLI_RUN_VALUES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/settings.h"

#define RG_RUN_MAX_IGNORES 256

/* run's options as parsed: the new session's settings, the buffers they
 * point into, and what belongs to this run alone (--session, --keep,
 * --supervise). */
struct rg_run_opts {
    struct rg_settings s;
    int supervise;
    const char *ignores[RG_RUN_MAX_IGNORES];
    size_t nignores;
    char ignore_buf[RG_IGNORES_MAX];
    const char *roots[64];
    char root_buf[64][PATH_MAX];
    char log_buf[PATH_MAX];
    const char *session; /* --session */
    bool keep;           /* --keep */
    char given[512];     /* the options given that set the table, "--mode, --log" */
};

/* dir is a --root, or NULL for the default, the working directory's git
 * work tree or the directory itself: a user who gave no --root is told of
 * that, not of an option never given. */
int rg_run_add_root(struct rg_run_opts *o, const char *dir);

int rg_run_set_mode(struct rg_run_opts *o, const char *name);

/* opt, in these two, names where the value came from in a refusal: the
 * option, or the environment variable that stands in for it. */
int rg_run_set_log(struct rg_run_opts *o, const char *file, const char *opt);
int rg_run_set_journal_max_file(struct rg_run_opts *o, const char *size, const char *opt);

int rg_run_set_capacity(struct rg_run_opts *o, const char *n);
int rg_run_add_ignore(struct rg_run_opts *o, const char *pattern);
int rg_run_set_read_ttl(struct rg_run_opts *o, const char *secs);
int rg_run_set_scan_files(struct rg_run_opts *o, const char *n);
int rg_run_set_scan_window(struct rg_run_opts *o, const char *secs);

/* READGUARD_JOURNAL_MAX_FILE, unless --journal-max-file was given: checked
 * as the option is, since a typo ("100MB") would quietly keep the default. */
int rg_run_env_journal_max_file(struct rg_run_opts *o);

/* Packs the ignore rules into the settings, now that the roots are known. */
int rg_run_pack_ignores(struct rg_run_opts *o);

#endif
