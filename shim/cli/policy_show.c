#include "cli/policy_show.h"
#include "cli/json/out.h"
#include "cli/shown.h"
#include "core/ignore.h"
/* Which roots a rule applies under: every one, or one root's .readguardignore. */
static const char *rule_scope(const struct rg_header *h, char scope, char *buf, size_t cap)
{
    if (scope == RG_IGN_EVERY_ROOT)
        return "every root";
    if (scope == RG_IGN_ABSOLUTE)
        return "absolute";
    unsigned i = (unsigned char)scope - RG_IGN_ROOT0, n = 0;
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r), n++)
        if (n == i) {
            snprintf(buf, cap, "%s/%s", r, RG_IGNORE_FILE);
            return buf;
        }
    return "?";
}

/* The journal's directory, or NULL when the session keeps nothing. */
static const char *journal_of(const struct rg_header *h)
{
    return (h->flags & RG_POLICY_NO_JOURNAL) || !h->journal_dir[0] ? NULL : h->journal_dir;
}

/* Whether undo will have anything to restore is what a user asks status;
 * the cap in the largest unit that states it exactly, as it was given. */
static void journal_human(FILE *f, const struct rg_header *h)
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB"};
    long long n = h->journal_max_file;
    int u = 0;
    while (u < 3 && n >= 1024 && n % 1024 == 0)
        n /= 1024, u++;
    if (journal_of(h))
        fprintf(f, "journal     %s (files up to %lld %s)\n", rg_shown(h->journal_dir), n, unit[u]);
    else
        fprintf(f, "journal     (off: --no-journal, nothing is kept for undo)\n");
}

void rg_policy_show_human(FILE *f, const struct rg_header *h)
{
    fprintf(f, "knobs      %s%s%s\n", h->flags & RG_POLICY_ALLOW_APPEND ? " allow-append" : "",
            h->flags & RG_POLICY_GUARD_UNLINK ? " guard-unlink" : "",
            h->flags & (RG_POLICY_ALLOW_APPEND | RG_POLICY_GUARD_UNLINK) ? "" : " (none)");
    if (h->read_ttl_ns > 0)
        fprintf(f, "read-ttl    %.3f s\n", (double)h->read_ttl_ns / 1e9);
    else
        fprintf(f, "read-ttl    (none)\n");
    if (h->scan_files)
        fprintf(f, "scan        more than %u files within %.3f s\n", h->scan_files,
                (double)h->scan_window_ns / 1e9);
    else
        fprintf(f, "scan        (off: every read counts)\n");
    journal_human(f, h);
    fprintf(f, "ignores     %u rules%s\n", h->nignores,
            h->flags & RG_POLICY_NO_DEFAULT_IGNORES ? ", no defaults" : "");
    char scope, buf[RG_LOG_PATH_MAX];
    for (const char *r = rg_ignore_next(h->ignores, h->ignores_len, NULL, &scope); r;
         r = rg_ignore_next(h->ignores, h->ignores_len, r, &scope))
        /* A rule is a line of a .readguardignore, which a session's tree
         * may write: its control characters (an ESC) reach no terminal. */
        fprintf(f, "            %-24s %s\n", rg_shown(r),
                rg_shown(rule_scope(h, scope, buf, sizeof buf)));
}

void rg_policy_show_json(FILE *f, bool *first, const struct rg_header *h)
{
    rg_jmember_bool(f, first, "allow_append", h->flags & RG_POLICY_ALLOW_APPEND);
    rg_jmember_bool(f, first, "guard_unlink", h->flags & RG_POLICY_GUARD_UNLINK);
    rg_jmember_int(f, first, "read_ttl_ns", h->read_ttl_ns);
    rg_jmember_int(f, first, "scan_files", h->scan_files);
    rg_jmember_int(f, first, "scan_window_ns", h->scan_window_ns);
    rg_jkey(f, first, "journal");
    if (journal_of(h))
        rg_jstr(f, h->journal_dir);
    else
        fputs("null", f);
    rg_jmember_int(f, first, "journal_max_file", h->journal_max_file);
    rg_jmember_bool(f, first, "default_ignores", !(h->flags & RG_POLICY_NO_DEFAULT_IGNORES));
    rg_jkey(f, first, "ignores");
    fputc('[', f);
    char scope, buf[RG_LOG_PATH_MAX];
    for (const char *r = rg_ignore_next(h->ignores, h->ignores_len, NULL, &scope); r;
         r = rg_ignore_next(h->ignores, h->ignores_len, r, &scope)) {
        bool one = true;
        fputs(r == h->ignores + 1 ? "{" : ",{", f);
        rg_jmember_str(f, &one, "rule", r);
        rg_jmember_str(f, &one, "applies", rule_scope(h, scope, buf, sizeof buf));
        fputc('}', f);
    }
    fputc(']', f);
}

void rg_roots_show_json(FILE *f, bool *first, const struct rg_header *h)
{
    rg_jkey(f, first, "roots");
    fputc('[', f);
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r)) {
        if (r != h->roots)
            fputc(',', f);
        rg_jstr(f, r);
    }
    fputc(']', f);
}
