#include "cli/json/out.h"
#include <limits.h>

#include "core/text.h"
void rg_jkey(FILE *f, bool *first, const char *key)
{
    fprintf(f, "%s\"%s\":", *first ? "" : ",", key);
    *first = false;
}

void rg_jstr(FILE *f, const char *s)
{
    char buf[PATH_MAX * 6 + 8];
    rg_json_escape(buf, sizeof buf, s);
    fprintf(f, "\"%s\"", buf);
}

void rg_jmember_path(FILE *f, bool *first, const char *key, const char *path)
{
    rg_jmember_str(f, first, key, path);
    if (rg_utf8_valid(path))
        return;
    char buf[PATH_MAX * 6 + 8];
    if (rg_json_escape_bytes(buf, sizeof buf, path) == SIZE_MAX)
        return;
    char bytes_key[64];
    snprintf(bytes_key, sizeof bytes_key, "%s_bytes", key);
    rg_jkey(f, first, bytes_key);
    fprintf(f, "\"%s\"", buf);
}

void rg_jmember_str(FILE *f, bool *first, const char *key, const char *s)
{
    rg_jkey(f, first, key);
    rg_jstr(f, s);
}

void rg_jmember_int(FILE *f, bool *first, const char *key, long long v)
{
    rg_jkey(f, first, key);
    fprintf(f, "%lld", v);
}

void rg_jmember_bool(FILE *f, bool *first, const char *key, bool v)
{
    rg_jkey(f, first, key);
    fputs(v ? "true" : "false", f);
}

void rg_jmember_time(FILE *f, bool *first, const char *key, int64_t ns)
{
    char t[RG_TIME_LEN];
    rg_format_time(ns, t);
    rg_jmember_str(f, first, key, t);
}
