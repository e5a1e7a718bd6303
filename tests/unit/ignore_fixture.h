/* One ignore list in a static buffer, built rule by rule, for the tests of
 * core/ignore.c; and a pattern too costly for wildmatch.c to decide. */
#ifndef RG_TEST_IGNORE_FIXTURE_H
#define RG_TEST_IGNORE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/ignore.h"
#include "core/wildmatch.h"

static char buf[4096];
static struct rg_ignore_list list;

static inline void reset(void) { list = (struct rg_ignore_list){buf, sizeof buf, 0, 0}; }

static inline void defaults(void)
{
    reset();
    for (size_t i = 0; rg_default_ignored_dirs[i][0]; i++)
        CHECK(rg_ignore_add(&list, RG_IGN_ABSOLUTE, rg_default_ignored_dirs[i]));
    for (size_t i = 0; rg_default_ignores[i][0]; i++)
        CHECK(rg_ignore_add(&list, RG_IGN_EVERY_ROOT, rg_default_ignores[i]));
}

/* Eight "**" components with a literal between each, against a path of
 * sixty directories that cannot match: without a bound the backtracking
 * takes far longer than any test run (the fuzzer's case took minutes). */
static inline void costly(char *pat, size_t pcap, char *path, size_t tcap, const char *prefix)
{
    snprintf(pat, pcap, "%s", prefix);
    for (int i = 0; i < 8; i++)
        strncat(pat, "**/a*/", pcap - strlen(pat) - 1);
    strncat(pat, "b", pcap - strlen(pat) - 1);
    snprintf(path, tcap, "/r");
    for (int i = 0; i < 60; i++)
        strncat(path, "/a", tcap - strlen(path) - 1);
    strncat(path, "/c", tcap - strlen(path) - 1);
}

static inline void add_lines(const char *text)
{
    CHECK(rg_ignore_add_lines(&list, (char)RG_IGN_ROOT0, text, strlen(text)));
}

#endif
