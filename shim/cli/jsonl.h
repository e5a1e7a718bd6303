/* Reading the session log back: each line is one flat JSON object whose
 * values are strings, numbers, booleans or null (see report.h). */
#ifndef RG_JSONL_H
#define RG_JSONL_H

#include <stdbool.h>
#include <stddef.h>

#define RG_JSONL_FIELDS 24

struct rg_jfield {
    char key[32];
    char *value;     /* unescaped string, or the literal (number, true, null) */
    bool is_string;
};

struct rg_jobject {
    size_t n;
    struct rg_jfield f[RG_JSONL_FIELDS];
    char buf[8192];  /* the values */
};

/* Parses one line. False when it is not a flat JSON object. */
bool rg_jsonl_parse(const char *line, struct rg_jobject *o);

/* The value of key, or NULL when absent or null. */
const char *rg_jsonl_get(const struct rg_jobject *o, const char *key);

#endif
