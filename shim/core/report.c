#include "core/report.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/settings.h"
#include "core/table.h"
#include "core/text.h"
/* Why the journal could not keep the bytes, in words. */
static int unkept_text(char *buf, size_t cap, const struct rg_report *r)
{
    const struct rg_file *f = r->file;
    const char *err = f->unkept_errname;
    char why[160];
    if (!err)
        err = "?";
    if (f->unkept == RG_UNKEPT_TOO_LARGE)
        snprintf(why, sizeof why, "it is too large (%lld bytes; --journal-max-file is %lld)",
                 (long long)f->size, (long long)r->facts->journal_max_file);
    else if (f->unkept == RG_UNKEPT_UNREADABLE)
        snprintf(why, sizeof why, "it cannot be read (%s)", err);
    else if (f->unkept_err == ENAMETOOLONG)
        snprintf(why, sizeof why, "its path is longer than the journal can name (%s)", err);
    else if (f->unkept_err == ENOSPC || f->unkept_err == EDQUOT)
        snprintf(why, sizeof why, "the journal is full (%s)", err);
    else
        snprintf(why, sizeof why, "the journal cannot be written (%s)", err);
    if (r->req->op == RG_OP_UNLINK && f->scope != RG_SCOPE_JOURNALED)
        return snprintf(buf, cap,
                        "its old bytes could not be kept in the journal: %s; under --strict a "
                        "file is removed without a read only once they are. Read it first, "
                        "then retry.",
                        why);
    return snprintf(buf, cap,
                    "its old bytes could not be kept in the journal: %s; a journaled file (one "
                    "git ignores or a tool owns) is written without a read only once they are. "
                    "Read it first, then retry.",
                    why);
}

/* Changed since the read: by mtime and size, or, with both put back
 * (touch -d, cp -p, tar -x), by ctime alone. */
static int changed_text(char *buf, size_t cap, const struct rg_report *r)
{
    char read_at[RG_TIME_LEN], now[RG_TIME_LEN];
    const struct rg_record *rec = &r->facts->rec;
    rg_format_time(rec->read_ns, read_at);
    if (rec->mtime_ns == r->file->mtime_ns && rec->size == r->file->size) {
        rg_format_time(r->file->ctime_ns, now);
        return snprintf(buf, cap,
                        "it changed since this session read it (read at %s, changed %s with "
                        "the same mtime and size). Read it again, then retry.",
                        read_at, now);
    }
    rg_format_time(r->file->mtime_ns, now);
    return snprintf(buf, cap,
                    "it changed since this session read it (read at %s, now modified %s, "
                    "size %lld -> %lld). Read it again, then retry.",
                    read_at, now, (long long)rec->size, (long long)r->file->size);
}

static int replaced_text(char *buf, size_t cap, const struct rg_report *r)
{
    char read_at[RG_TIME_LEN];
    if (!r->was)
        return snprintf(buf, cap,
                        "it was replaced by another file since this session read it. "
                        "Read it again, then retry.");
    rg_format_time(r->was->read_ns, read_at);
    return snprintf(buf, cap,
                    "it was replaced by another file since this session read it (read at "
                    "%s). Read it again, then retry.",
                    read_at);
}

static int expired_text(char *buf, size_t cap, const struct rg_report *r)
{
    char read_at[RG_TIME_LEN];
    rg_format_time(r->facts->rec.read_ns, read_at);
    return snprintf(buf, cap,
                    "this session read it at %s, longer ago than its read TTL of %.3g s. "
                    "Read it again, then retry.",
                    read_at, (double)r->facts->read_ttl_ns / 1e9);
}

/* The scanner's name is the tree's to choose (prctl PR_SET_NAME): escaped,
 * a newline in it cannot start a line of its own. */
static int scanned_text(char *buf, size_t cap, const struct rg_report *r)
{
    char who[4 * 16];
    rg_line_escape(who, sizeof who, r->scanner && r->scanner[0] ? r->scanner : "?");
    return snprintf(buf, cap,
                    "it was only scanned by `%s` (pid %d, one of many files read at once). "
                    "Read it to write it, then retry.",
                    who, (int)(r->facts->rec.reader & RG_READER_PID_MASK));
}

/* The session's own files: its journal, or its table; or another session's table. */
static int sealed_text(char *buf, size_t cap, const struct rg_report *r)
{
    if (r->file && r->file->in_log)
        return snprintf(buf, cap,
                        "it is this session's log, the record of what it refused: a --strict "
                        "tree may not change it.");
    if (r->file && r->file->in_table)
        return snprintf(buf, cap,
                        "it is another session's table: a --strict tree may not steer the "
                        "other sessions of its user.");
    if (r->file && r->file->in_journal)
        return snprintf(buf, cap,
                        "it is this session's journal, which keeps what the session removes "
                        "and overwrites: a --strict tree may not change it.");
    return snprintf(buf, cap,
                    "it is this session's own table, which its processes may not change (nor "
                    "open, under --strict). Steer the session from outside it (readguard mark "
                    "--session).");
}

/* A bad READGUARD_* variable is the only problem whose text starts with
 * its name (preload/envsettings.c, attach.c): a new session would read the
 * same variable and fail the same way, so the advice is to fix it. Another
 * user's table is most often a process that changed user inside the
 * session (root's su or setpriv, which keep LD_PRELOAD; sudo clears it,
 * so its command leaves the session): that user needs a session of its own. */
static const char *no_table_advice(const char *problem)
{
    if (problem && strncmp(problem, "READGUARD_", 10) == 0)
        return "Fix or unset the variable it names, then retry.";
    if (problem && (strcmp(problem, RG_TABLE_OTHER_USER) == 0 ||
                    strcmp(problem, RG_TABLE_OTHER_USERS_DIR) == 0))
        return "A session is one user's: a command run as another user (su, setpriv) needs a "
               "session of its own, started as that user with 'readguard run'.";
    return "Start a new session with 'readguard run'.";
}

static int no_table_text(char *buf, size_t cap, const char *problem)
{
    return snprintf(buf, cap, "the session table is unusable (%s), so no read can be proven. %s",
                    problem ? problem : "unknown", no_table_advice(problem));
}

size_t rg_reason_text(char *buf, size_t cap, const struct rg_report *r, uint32_t capacity,
                      const char *problem)
{
    int n = 0;
    switch (r->decision.reason) {
    case RG_WHY_UNREAD:
        n = r->unreadable
                ? snprintf(buf, cap,
                           "it has not been read in this session, and this process may not "
                           "read it (no read permission). If it may be overwritten, record it "
                           "as read with 'readguard mark FILE', then retry.")
                : snprintf(buf, cap,
                           "it has not been read in this session. Read it first, then retry.");
        break;
    case RG_WHY_CHANGED: n = changed_text(buf, cap, r); break;
    case RG_WHY_REPLACED: n = replaced_text(buf, cap, r); break;
    case RG_WHY_TABLE_FULL:
        n = capacity
                ? snprintf(buf, cap,
                           "the session table is full (%u files), so this session cannot "
                           "record reading it. Start the session with a larger --capacity.",
                           capacity)
                : snprintf(
                      buf, cap,
                      "the session table is full: its file system has no room left, so "
                      "this session cannot record reading it. Free room there, or point " RG_ENV_DIR
                      " at a file system with room for new sessions.");
        break;
    case RG_WHY_NO_TABLE: n = no_table_text(buf, cap, problem); break;
    case RG_WHY_EXPIRED: n = expired_text(buf, cap, r); break;
    case RG_WHY_SCANNED: n = scanned_text(buf, cap, r); break;
    case RG_WHY_SEALED: n = sealed_text(buf, cap, r); break;
    case RG_WHY_UNKEPT: n = unkept_text(buf, cap, r); break;
    case RG_WHY_OK: n = snprintf(buf, cap, "it may be written."); break;
    }
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void json_time(char *out, size_t cap, const char *key, bool known, int64_t ns)
{
    char t[RG_TIME_LEN];
    if (!known) {
        snprintf(out, cap, ",\"%s\":null", key);
        return;
    }
    rg_format_time(ns, t);
    snprintf(out, cap, ",\"%s\":\"%s\"", key, t);
}

size_t rg_log_format(char *out, size_t cap, const struct rg_log_line *l)
{
    char path[2048], prog[256], rt[80], ct[80], now[RG_TIME_LEN];
    rg_json_escape(path, sizeof path, l->path);
    rg_json_escape(prog, sizeof prog, l->prog);
    rg_format_time(l->time_ns, now);
    json_time(rt, sizeof rt, "recorded_mtime", l->recorded, l->recorded_mtime_ns);
    json_time(ct, sizeof ct, "current_mtime", true, l->current_mtime_ns);
    char rs[32] = "null";
    if (l->recorded)
        snprintf(rs, sizeof rs, "%lld", (long long)l->recorded_size);
    /* The id is digits and a dash (jrecord.h): nothing to escape. */
    bool sid = l->session && l->session[0];
    int n = snprintf(out, cap,
                     "{\"time\":\"%s\",\"pid\":%d,\"prog\":\"%s\",\"op\":\"%s\",\"call\":\"%s\","
                     "\"path\":\"%s\",\"decision\":\"%s\",\"reason\":\"%s\"%s%s,"
                     "\"recorded_size\":%s,\"current_size\":%lld%s%s%s}\n",
                     now, l->pid, prog, l->op, l->call, path, l->decision, l->reason, rt, ct, rs,
                     (long long)l->current_size, sid ? ",\"session\":\"" : "",
                     sid ? l->session : "", sid ? "\"" : "");
    return n <= 0 || (size_t)n >= cap ? 0 : (size_t)n;
}
