/* readguard status: a session's settings, counters and tracked files. */
#include "cli/verbs.h"
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json/out.h"
#include "cli/pick.h"
#include "cli/policy_show.h"
#include "cli/shown.h"
#include "cli/where.h"
#include "core/jrecord.h"
#include "core/settings.h"
#include "core/text.h"
#include "os/session.h"
static const char usage[] =
    "Usage: readguard status [--session S] [--json] [--files]\n"
    "Show a session's settings (roots, mode, log), its counters (files tracked,\n"
    "reads recorded, writes allowed, refusals, warnings) and how full its table is.\n"
    "\n" RG_SESSION_HELP_LIVE
    "  -f, --files          also list every tracked file: state, dev:ino, mtime,\n"
    "                       size, and its path now under the roots (or: no name\n"
    "                       under the roots)\n"
    "  -j, --json           one JSON object on stdout, for programs\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "A file's state is 'read' (recorded by a read), 'scanned' (only read by a scan:\n"
    "writable by the scanner and its descendants), 'written' (restamped after the\n"
    "session's own write), 'writing' (a session process holds it open for writing),\n"
    "'forgotten' (by reset or forget: the session must read it again) or\n"
    "'appended' (appended to unread, as --allow-append lets: still unread).\n"
    "Exit status: 0, or 2 if there is no usable session.\n";

static const char *entry_state(const struct rg_table *t, const struct rg_entry *e)
{
    struct rg_record r = rg_entry_load(t, e);
    if (!r.found)
        return rg_entry_appended(e) ? "appended" : "forgotten";
    if (r.writers > 0)
        return "writing";
    if (atomic_load(&e->gen) & RG_GEN_WRITE)
        return "written";
    return r.reader & RG_READER_SCAN ? "scanned" : "read";
}

static uint32_t count_tracked(const struct rg_table *t)
{
    uint32_t used = rg_table_used(t), n = 0;
    for (uint32_t i = 0; i < used; i++)
        n += t->entries[i].ino != 0 && rg_entry_load(t, &t->entries[i]).found;
    return n;
}

static void human(const struct rg_cli_session *s)
{
    const struct rg_header *h = s->table.hdr;
    char created[RG_TIME_LEN];
    rg_format_time(h->created_ns, created);
    uint32_t used = rg_table_used(&s->table);
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, h->created_ns, h->creator_pid);
    printf("session     %s\n", rg_shown(s->path));
    printf("id          %s\n", id);
    struct rg_exec_wait wait = {0};
    printf("state       %s (pid %d)\n", rg_session_running(s->path, h, &wait) ? "running" : "ended",
           (int)rg_header_owner(h));
    printf("created     %s\n", created);
    printf("mode        %s\n", rg_mode_name((enum rg_mode)h->mode));
    const char *label = "roots";
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r), label = "")
        printf("%-11s %s\n", label, rg_shown(r));
    printf("log         %s\n", h->log_path[0] ? rg_shown(h->log_path) : "(none)");
    rg_policy_show_human(stdout, h);
    printf("capacity    %u files, %u used (%.1f%%)%s\n", s->table.capacity, used,
           100.0 * used / s->table.capacity, atomic_load(&h->full) != RG_FULL_NOT ? ", FULL" : "");
    printf("tracked     %u files read or written in this generation\n", count_tracked(&s->table));
    printf("generation  %u\n", atomic_load(&h->generation));
    printf("reads       %llu\n", (unsigned long long)atomic_load(&h->reads));
    printf("writes      %llu allowed\n", (unsigned long long)atomic_load(&h->writes_allowed));
    printf("refusals    %llu\n", (unsigned long long)atomic_load(&h->refusals));
    printf("warnings    %llu\n", (unsigned long long)atomic_load(&h->warnings));
}

/* Where no walk of the roots found the inode: outside them, or removed
 * since. A path found is absolute, so this cannot be mistaken for one. */
#define RG_STATUS_NO_NAME "(no name under the roots)"

static void human_files(const struct rg_table *t)
{
    struct rg_where *w;
    size_t n = rg_where_find(t, &w);
    printf("\n%-9s  %-20s  %-30s  %10s  %s\n", "STATE", "DEV:INO", "MTIME", "SIZE", "PATH");
    for (size_t i = 0; i < n; i++) {
        const struct rg_entry *e = &t->entries[w[i].entry];
        char id[48], mt[RG_TIME_LEN];
        snprintf(id, sizeof id, "%llu:%llu", (unsigned long long)w[i].dev,
                 (unsigned long long)w[i].ino);
        rg_format_time(atomic_load(&e->mtime_ns), mt);
        /* One row per file: a newline in a name would start a false one. */
        char shown[4 * PATH_MAX];
        rg_line_escape(shown, sizeof shown, w[i].path ? w[i].path : RG_STATUS_NO_NAME);
        printf("%-9s  %-20s  %-30s  %10lld  %s\n", entry_state(t, e), id, mt,
               (long long)atomic_load(&e->size), shown);
    }
    rg_where_free(w, n);
}

static void json_files(const struct rg_table *t)
{
    struct rg_where *w;
    size_t n = rg_where_find(t, &w);
    fputs(",\"files\":[", stdout);
    for (size_t i = 0; i < n; i++) {
        const struct rg_entry *e = &t->entries[w[i].entry];
        bool first = true;
        fputs(i ? ",{" : "{", stdout);
        rg_jmember_str(stdout, &first, "state", entry_state(t, e));
        rg_jmember_int(stdout, &first, "dev", (long long)w[i].dev);
        rg_jmember_int(stdout, &first, "ino", (long long)w[i].ino);
        rg_jmember_time(stdout, &first, "mtime", atomic_load(&e->mtime_ns));
        rg_jmember_int(stdout, &first, "size", (long long)atomic_load(&e->size));
        /* An append stamp's read_ns is a pid, not a time: no stamp to show. */
        if (rg_entry_appended(e)) {
            rg_jkey(stdout, &first, "stamped");
            fputs("null", stdout);
        } else
            rg_jmember_time(stdout, &first, "stamped", atomic_load(&e->read_ns));
        if (w[i].path)
            rg_jmember_path(stdout, &first, "path", w[i].path);
        else {
            rg_jkey(stdout, &first, "path");
            fputs("null", stdout);
        }
        fputc('}', stdout);
    }
    fputc(']', stdout);
    rg_where_free(w, n);
}

static void json(const struct rg_cli_session *s, bool files)
{
    const struct rg_header *h = s->table.hdr;
    bool first = true;
    fputc('{', stdout);
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, h->created_ns, h->creator_pid);
    rg_jmember_str(stdout, &first, "session", s->path);
    rg_jmember_str(stdout, &first, "id", id);
    struct rg_exec_wait wait = {0};
    bool running = rg_session_running(s->path, h, &wait);
    /* "state", as sessions --json names it; "running" is kept for the
     * programs that read it before "state" was added. */
    rg_jmember_str(stdout, &first, "state", running ? "running" : "ended");
    rg_jmember_bool(stdout, &first, "running", running);
    rg_jmember_int(stdout, &first, "pid", rg_header_owner(h));
    rg_jmember_time(stdout, &first, "created", h->created_ns);
    rg_jmember_str(stdout, &first, "mode", rg_mode_name((enum rg_mode)h->mode));
    rg_roots_show_json(stdout, &first, h);
    rg_jmember_str(stdout, &first, "log", h->log_path);
    rg_policy_show_json(stdout, &first, h);
    rg_jmember_int(stdout, &first, "capacity", s->table.capacity);
    rg_jmember_int(stdout, &first, "used", rg_table_used(&s->table));
    rg_jmember_bool(stdout, &first, "full", atomic_load(&h->full) != RG_FULL_NOT);
    rg_jmember_int(stdout, &first, "tracked", count_tracked(&s->table));
    rg_jmember_int(stdout, &first, "generation", atomic_load(&h->generation));
    rg_jmember_int(stdout, &first, "reads", (long long)atomic_load(&h->reads));
    rg_jmember_int(stdout, &first, "writes_allowed", (long long)atomic_load(&h->writes_allowed));
    rg_jmember_int(stdout, &first, "refusals", (long long)atomic_load(&h->refusals));
    rg_jmember_int(stdout, &first, "warnings", (long long)atomic_load(&h->warnings));
    if (files)
        json_files(&s->table);
    fputs("}\n", stdout);
}

int rg_cmd_status(int argc, char **argv)
{
    static const struct option longs[] = {
        {"json", no_argument, NULL, 'j'}, {"files", no_argument, NULL, 'f'}, {NULL, 0, NULL, 0}};
    struct rg_verb v = {"status", usage, "jf", longs, NULL, false};
    bool as_json = false, files = false;
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch == 'j')
            as_json = true;
        else if (ch == 'f')
            files = true;
        else
            return rg_verb_usage_error(&v);
    }
    if (rg_verb_no_operands(&v, argc, argv) != RG_EXIT_OK)
        return RG_EXIT_TROUBLE;
    struct rg_cli_session s;
    if (rg_pick_session(v.session, &s) < 0)
        return RG_EXIT_TROUBLE;
    if (as_json) {
        json(&s, files);
    } else {
        human(&s);
        if (files)
            human_files(&s.table);
    }
    rg_drop_session(&s);
    return RG_EXIT_OK;
}
