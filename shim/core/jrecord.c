#include "core/jrecord.h"
#include <stdio.h>
#include <string.h>

#include "core/sha256.h"
#include "core/text.h"
void rg_journal_id(char out[RG_JOURNAL_ID_MAX], int64_t created_ns, int32_t creator_pid)
{
    snprintf(out, RG_JOURNAL_ID_MAX, "%019lld-%d", (long long)created_ns, (int)creator_pid);
}

void rg_jobject_linked(char out[RG_JOURNAL_OBJECT_MAX], uint64_t dev, uint64_t ino,
                       int64_t ctime_ns)
{
    snprintf(out, RG_JOURNAL_OBJECT_MAX, RG_JOURNAL_LINKED "%llu-%llu-%lld",
             (unsigned long long)dev, (unsigned long long)ino, (long long)ctime_ns);
}

bool rg_jobject_is_linked(const char *name)
{
    size_t pre = sizeof RG_JOURNAL_LINKED - 1;
    if (strncmp(name, RG_JOURNAL_LINKED, pre) != 0)
        return false;
    int dashes = 0;
    const char *p = name + pre;
    for (; *p && (*p == '-' || (*p >= '0' && *p <= '9')); p++)
        dashes += *p == '-';
    return !*p && dashes == 2 && p - name < RG_JOURNAL_OBJECT_MAX && p[-1] != '-' &&
           name[pre] != '-' && !strstr(name, "--");
}

bool rg_jobject_valid(const char *name)
{
    size_t n = strspn(name, "0123456789abcdef");
    return (n == RG_SHA256_HEX - 1 && !name[n]) || rg_jobject_is_linked(name);
}

size_t rg_jrecord_format(char *out, size_t cap, const struct rg_jrecord *r)
{
    char path[4200], prog[128], obj[RG_SHA256_HEX + 8], why[64], t[RG_TIME_LEN];
    rg_json_escape(path, sizeof path, r->path);
    rg_json_escape(prog, sizeof prog, r->prog ? r->prog : "");
    rg_format_time(r->time_ns, t);
    snprintf(obj, sizeof obj, r->object ? "\"%s\"" : "null", r->object);
    snprintf(why, sizeof why, r->unsaved ? "\"%s\"" : "null", r->unsaved);
    int n = snprintf(out, cap,
                     "{\"time\":\"%s\",\"time_ns\":%lld,\"pid\":%d,\"prog\":\"%s\",\"op\":\"%s\","
                     "\"call\":\"%s\",\"path\":\"%s\",\"dev\":%llu,\"ino\":%llu,\"mode\":%u,"
                     "\"uid\":%u,\"gid\":%u,\"mtime_ns\":%lld,\"atime_ns\":%lld,\"size\":%lld,"
                     "\"exists\":%s,\"object\":%s,\"unsaved\":%s}\n",
                     t, (long long)r->time_ns, r->pid, prog, r->op, r->call ? r->call : "", path,
                     (unsigned long long)r->dev, (unsigned long long)r->ino, r->mode, r->uid,
                     r->gid, (long long)r->mtime_ns, (long long)r->atime_ns, (long long)r->size,
                     r->exists ? "true" : "false", obj, why);
    return n <= 0 || (size_t)n >= cap ? 0 : (size_t)n;
}
