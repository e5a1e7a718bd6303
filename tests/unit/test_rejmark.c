/* Unit tests for core/rejmark.c: the headers GNU patch writes its rejects
 * under (each taken from patch 2.7.6's own output), and the .rej files a
 * person keeps. */
#include <string.h>

#include "check.h"
#include "core/rejmark.h"
static bool rejects(const char *name, const char *s)
{
    return rg_patch_rejects(name, s, strlen(s));
}

TEST(unified_rejects_name_the_file_they_are_for)
{
    CHECK(rejects("a.txt.rej", "--- a.txt\n+++ a.txt\n@@ -2,7 +2,7 @@\n a 2\n"));
    /* Stripped of -p's prefix, with diff's times after a tab. */
    CHECK(rejects("a.txt.rej", "--- src/a.txt\t2026-11-28 04:24:37.789085313 +0000\n"
                               "+++ src/a.txt\t2026-11-28 04:24:37.790688569 +0000\n"
                               "@@ -2,7 +2,7 @@\n"));
    /* git's headers: the function after the range. */
    CHECK(rejects("a.txt.rej", "--- src/a.txt\n+++ src/a.txt\n@@ -2,7 +2,7 @@ a 1\n"));
    /* Only one side names it (a creation, or another old name). */
    CHECK(rejects("new.c.rej", "--- /dev/null\n+++ lib/new.c\n@@ -0,0 +1,3 @@\n"));
    CHECK(rejects("a.c.rej", "--- a.c.old\n+++ a.c\n@@ -1 +1 @@\n"));
}

TEST(context_rejects_and_a_normal_diffs_name_nothing_but_dev_null)
{
    CHECK(rejects("a.txt.rej", "*** src/a.txt\t2026-11-28 04:24:37.789085313 +0000\n"
                               "--- src/a.txt\t2026-11-28 04:24:37.790688569 +0000\n"
                               "***************\n*** 2,8 ****\n"));
    CHECK(rejects("a.txt.rej", "*** /dev/null\n--- /dev/null\n***************\n*** 5\n"));
}

TEST(a_persons_rej_file_is_no_rejects)
{
    CHECK(!rejects("a.txt.rej", "older\n"));
    CHECK(!rejects("a.txt.rej", "--- b.txt\n+++ b.txt\n@@ -1 +1 @@\n"));   /* another file's */
    CHECK(!rejects("a.txt.rej", "--- xa.txt\n+++ xa.txt\n@@ -1 +1 @@\n")); /* not its name */
    CHECK(!rejects("a.txt.rej", "--- a.txt\n+++ a.txt\n"));                /* no hunk */
    CHECK(!rejects("a.txt.rej", "--- a.txt\n+++ a.txt"));                  /* cut short */
    CHECK(!rejects("a.txt.rej", "*** a.txt\n--- a.txt\n** 1\n"));          /* no stars */
    /* Unified rejects come from a diff that named its files. */
    CHECK(!rejects("a.txt.rej", "--- /dev/null\n+++ /dev/null\n@@ -1 @@\n"));
    CHECK(!rejects("a.txt.rej", "--- \n+++ a.txt\n@@ -1 +1 @@\n"));
    /* The header of a diff a person keeps, under another name. */
    CHECK(!rejects("fix.diff", "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n"));
    CHECK(!rejects("a.txt", "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n"));
    CHECK(!rejects(".rej", "--- \n+++ \n@@ -1 +1 @@\n"));
}

int main(void)
{
    RUN(unified_rejects_name_the_file_they_are_for);
    RUN(context_rejects_and_a_normal_diffs_name_nothing_but_dev_null);
    RUN(a_persons_rej_file_is_no_rejects);
    return check_done();
}
