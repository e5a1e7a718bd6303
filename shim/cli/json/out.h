/* Writing JSON objects for the verbs' --json output. */
#ifndef RG_JSONOUT_H
#define RG_JSONOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Separator and "key": before a member; *first tracks the object. */
void rg_jkey(FILE *f, bool *first, const char *key);
/* A string value, escaped as the log escapes it. */
void rg_jstr(FILE *f, const char *s);
void rg_jmember_str(FILE *f, bool *first, const char *key, const char *s);
/* A path: key as rg_jmember_str, and where it is not UTF-8, key_bytes too,
 * its bytes (rg_json_escape_bytes), as the journal's records have it. */
void rg_jmember_path(FILE *f, bool *first, const char *key, const char *path);
void rg_jmember_int(FILE *f, bool *first, const char *key, long long v);
void rg_jmember_bool(FILE *f, bool *first, const char *key, bool v);
/* A UTC time stamp string, from nanoseconds. */
void rg_jmember_time(FILE *f, bool *first, const char *key, int64_t ns);

#endif
