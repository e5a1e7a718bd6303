/* Reading the session log and a journal index back: each line is one flat
 * JSON object whose values are strings, numbers, booleans or null (see
 * core/report.h, core/jrecord.h). Pure: the library reads an index at a
 * session's end too (guard/journal/end.h). */
#ifndef RG_JSONL_H
#define RG_JSONL_H

#include <stdbool.h>
#include <stddef.h>

#define RG_JSONL_FIELDS 24

struct rg_jfield {
    char key[32];
    char *value; /* unescaped string, or the literal (number, true, null) */
    bool is_string;
};

struct rg_jobject {
    size_t n;
    struct rg_jfield f[RG_JSONL_FIELDS];
    char buf[8192]; /* the values */
};

/* Parses one line. False when it is not a flat JSON object. */
bool rg_jsonl_parse(const char *line, struct rg_jobject *o);

/* The value of key, or NULL when absent or null. */
const char *rg_jsonl_get(const struct rg_jobject *o, const char *key);

/* The value found by following keys (NULL-terminated) down nested objects of
 * the JSON document doc, e.g. {"tool_input", "file_path", NULL}: a string
 * unescaped into out, or a number or boolean as written. False when it is
 * absent, null, an object or an array, does not fit in cap bytes, or the
 * document is not JSON on the way to it. Members skipped on the way may
 * nest up to RG_JSON_DEPTH deep. */
#define RG_JSON_DEPTH 64
bool rg_json_lookup(const char *doc, const char *const *keys, char *out, size_t cap);

/* Is doc one JSON object with nothing but white space after it? What tells
 * input that is not JSON at all from JSON that lacks a member. */
bool rg_json_is_object(const char *doc);

#endif
