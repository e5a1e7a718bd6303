#include "log.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "session.h"
#include "sys.h"
#include "text.h"

size_t rg_reason_text(char *buf, size_t cap, const struct rg_report *r, const struct rg_ctx *c)
{
    char read_at[RG_TIME_LEN], now[RG_TIME_LEN];
    const struct rg_record *rec = &r->facts->rec;
    int n = 0;
    switch (r->decision.reason) {
    case RG_WHY_UNREAD:
        n = snprintf(buf, cap, "it has not been read in this session. Read it first, then retry.");
        break;
    case RG_WHY_CHANGED:
        rg_format_time(rec->read_ns, read_at);
        rg_format_time(r->file->mtime_ns, now);
        n = snprintf(buf, cap,
                     "it changed since this session read it (read at %s, now modified %s, "
                     "size %lld -> %lld). Read it again, then retry.",
                     read_at, now, (long long)rec->size, (long long)r->file->size);
        break;
    case RG_WHY_TABLE_FULL:
        n = snprintf(buf, cap,
                     "the session table is full (%u files), so this session cannot record "
                     "reading it. Start the session with a larger --capacity.",
                     c->table.hdr ? c->table.hdr->capacity : 0);
        break;
    case RG_WHY_NO_TABLE:
        n = snprintf(buf, cap,
                     "the session table is unusable (%s), so no read can be proven. Start a "
                     "new session with 'readguard run'.",
                     c->problem ? c->problem : "unknown");
        break;
    case RG_WHY_OK:
        n = snprintf(buf, cap, "it may be written.");
        break;
    }
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void refusal_line(const struct rg_report *r, const struct rg_ctx *c)
{
    char line[PATH_MAX + 512];
    size_t n = (size_t)snprintf(line, sizeof line, "readguard: refused to write '%s': ",
                                r->shown_path);
    if (n >= sizeof line - 2)
        n = sizeof line - 2;
    n += rg_reason_text(line + n, sizeof line - n - 1, r, c);
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w;
}

static int open_log(const char *path)
{
    int fd = rg_sys_openat(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY,
                           0600);
    if (fd != -ENOENT)
        return fd;
    /* Make the missing parents, then try once more. */
    char dir[RG_LOG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0700);
            *p = '/';
        }
    return rg_sys_openat(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY,
                         0600);
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

static void json_line(const struct rg_report *r, const struct rg_ctx *c)
{
    const char *log = c->table.hdr ? c->table.hdr->log_path : "";
    if (!log[0])
        return;
    char path[2048], prog[256], line[4096], rt[80], ct[80], now[RG_TIME_LEN];
    rg_json_escape(path, sizeof path, r->abs_path);
    rg_json_escape(prog, sizeof prog, program_invocation_short_name);
    rg_format_time(rg_now_ns(), now);
    bool found = r->facts->rec.found;
    json_time(rt, sizeof rt, "recorded_mtime", found, r->facts->rec.mtime_ns);
    json_time(ct, sizeof ct, "current_mtime", true, r->file->mtime_ns);
    char rs[32] = "null";
    if (found)
        snprintf(rs, sizeof rs, "%lld", (long long)r->facts->rec.size);
    int n = snprintf(line, sizeof line,
                     "{\"time\":\"%s\",\"pid\":%d,\"prog\":\"%s\",\"op\":\"%s\",\"call\":\"%s\","
                     "\"path\":\"%s\",\"decision\":\"%s\",\"reason\":\"%s\"%s%s,"
                     "\"recorded_size\":%s,\"current_size\":%lld}\n",
                     now, (int)getpid(), prog, rg_op_name(r->req->op), r->req->call, path,
                     r->decision.action == RG_WARN ? "warn" : "refuse",
                     rg_reason_name(r->decision.reason), rt, ct, rs, (long long)r->file->size);
    if (n <= 0 || (size_t)n >= sizeof line)
        return;
    int fd = open_log(log);
    /* One warning per process, not per call: a full disk must not flood
     * stderr, and the decision itself never depends on the log. */
    if (fd < 0 || write(fd, line, (size_t)n) != n) {
        if (!atomic_exchange((_Atomic int *)&c->log_warned, 1)) {
            char msg[RG_LOG_PATH_MAX + 128];
            int m = snprintf(msg, sizeof msg,
                             "readguard: warning: cannot write the log '%s'; decisions are "
                             "unaffected.\n",
                             log);
            if (m > 0 && write(STDERR_FILENO, msg, (size_t)m) < 0)
                m = 0;
        }
    }
    if (fd >= 0)
        rg_sys_close(fd);
}

void rg_log_decision(struct rg_ctx *c, const struct rg_report *r)
{
    if (c->table.hdr) {
        struct rg_header *h = c->table.hdr;
        atomic_fetch_add_explicit(r->decision.action == RG_WARN ? &h->warnings : &h->refusals, 1,
                                  memory_order_relaxed);
    }
    /* Warn mode stays silent on stderr: it is for watching a workload, and
     * must not change what the workload prints. */
    if (r->decision.action == RG_REFUSE)
        refusal_line(r, c);
    json_line(r, c);
}
