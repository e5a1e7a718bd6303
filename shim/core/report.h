/* What a decision looks like as text: the reason sentence of a refusal and
 * the session log's JSON line. Pure formatting, with no per-process state,
 * so the shim and the CLI share it: `readguard check` words a refusal
 * exactly as the shim does, and `readguard mark` logs in the same format
 * (os/logfile.h opens the log). */
#ifndef RG_REPORT_H
#define RG_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/policy.h"
#include "core/request.h"
struct rg_report {
    const struct rg_request *req;
    const char *shown_path; /* as the program gave it */
    const char *abs_path;   /* where the data lives */
    const struct rg_file *file;
    const struct rg_facts *facts;
    struct rg_decision decision;
    const char *scanner;         /* the program that scanned it (RG_WHY_SCANNED), or NULL */
    const struct rg_record *was; /* the file read under its name (RG_WHY_REPLACED), or NULL */
    bool unreadable;             /* RG_WHY_UNREAD: the writer may not read the file, so it
                                    cannot follow the usual advice to read it first */
};

/* The reason sentence, as printed after "refused to write 'PATH': ".
 * capacity and problem fill in the table-full and no-table sentences;
 * capacity 0: it is the table's file system that has no room left.
 * Returns the length written. */
size_t rg_reason_text(char *buf, size_t cap, const struct rg_report *r, uint32_t capacity,
                      const char *problem);

/* One line of the session log, field by field. */
struct rg_log_line {
    int64_t time_ns;
    int pid;
    const char *prog;
    const char *op;
    const char *call;
    const char *path;
    const char *decision; /* "refuse", "warn" or "mark" */
    const char *reason;
    bool recorded; /* recorded_* are known */
    int64_t recorded_mtime_ns;
    int64_t recorded_size;
    int64_t current_mtime_ns;
    int64_t current_size;
    const char *session; /* the session's journal id (jrecord.h), or NULL */
};

/* Formats l as one JSON object and a newline. Returns its length, or 0 when
 * it does not fit in cap. */
size_t rg_log_format(char *out, size_t cap, const struct rg_log_line *l);

#endif
