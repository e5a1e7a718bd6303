/* Unit tests for jrecord.c: the names of kept versions, which a record
 * carries and the CLI turns into paths, and the record's JSON line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/jrecord.h"
TEST(linked_name_says_device_inode_and_ctime)
{
    char name[RG_JOURNAL_OBJECT_MAX];
    CHECK_EQ_INT((int)rg_jobject_linked(name, 65024, 10954568, 1795479344362957579LL),
                 (int)strlen("ino-65024-10954568-1795479344362957579"));
    CHECK_EQ_STR(name, "ino-65024-10954568-1795479344362957579");
    CHECK(rg_jobject_is_linked(name));
    CHECK(rg_jobject_valid(name));
}

TEST(largest_linked_name_fits)
{
    char name[RG_JOURNAL_OBJECT_MAX];
    size_t n = rg_jobject_linked(name, UINT64_MAX, UINT64_MAX, INT64_MAX);
    CHECK_EQ_INT((int)n, (int)strlen(name));
    CHECK(rg_jobject_is_linked(name));
}

TEST(sha256_hex_is_valid_not_linked)
{
    const char *hex = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";
    CHECK(rg_jobject_valid(hex));
    CHECK(!rg_jobject_is_linked(hex));
}

/* A record is read back from a file anyone with the journal's rights could
 * edit: no name may climb out of objects/ or name a dot-file. */
TEST(names_that_are_not_the_journals_are_refused)
{
    const char *bad[] = {
        "",
        "..",
        "../../etc/passwd",
        ".tmp-1-2",
        "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be0",
        "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03/x",
        "5891B5B522D5DF086D0FF0B110FBD9D21BB4FC7163AF34D08286A2E846F6BE03",
        "ino-",
        "ino-1-2",
        "ino-1-2-3-4",
        "ino-1--3",
        "ino--1-2-3",
        "ino-1-2-3-",
        "ino-1-2-3/..",
        "ino-1-2-x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (!CHECK(!rg_jobject_valid(bad[i])))
            fprintf(stderr, "#     accepted: \"%s\"\n", bad[i]);
}

TEST(record_line_names_its_object_or_why_not)
{
    char line[2048];
    struct rg_jrecord r = {.op = "unlink", .path = "/w/a\"b", .object = "ino-1-2-3"};
    CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
    CHECK(strstr(line, "\"object\":\"ino-1-2-3\",\"unsaved\":null}\n") != NULL);
    CHECK(strstr(line, "\"path\":\"/w/a\\\"b\"") != NULL);
    r.object = NULL, r.unsaved = "too-large";
    CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
    CHECK(strstr(line, "\"object\":null,\"unsaved\":\"too-large\"}") != NULL);
}

TEST(record_of_a_path_that_is_not_utf8_keeps_its_bytes)
{
    char line[2048];
    struct rg_jrecord r = {.op = "unlink", .path = "/w/caf\xe9", .object = "ino-1-2-3"};
    CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
    CHECK(strstr(line, "\"path\":\"/w/caf\\ufffd\",\"path_bytes\":\"/w/caf%e9\",") != NULL);
    r.path = "/w/caf\xc3\xa9";
    CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
    CHECK(strstr(line, "path_bytes") == NULL);
}

/* Numbers are written by hand, two digits a step: they must read as
 * printf's would, at every length and sign. */
TEST(record_numbers_read_as_printf_writes_them)
{
    static const long long vals[] = {0, 7, 10, 99, 100, 101, 999, 1000, 65024, -1, -10, -100,
                                     INT64_MAX, INT64_MIN, 1795479344362957579LL,
                                     /* around 2^32, where the digits go on in 32 bits */
                                     4294967295LL, 4294967296LL, 4294967299LL, 429496729500LL,
                                     429496729699LL, 1000000000000LL};
    char line[2048], want[64];
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        struct rg_jrecord r = {
            .op = "write", .path = "/w/a", .mtime_ns = vals[i], .dev = UINT64_MAX};
        CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
        snprintf(want, sizeof want, ",\"mtime_ns\":%lld,", vals[i]);
        CHECK(strstr(line, want) != NULL);
        CHECK(strstr(line, ",\"dev\":18446744073709551615,") != NULL);
    }
    /* each side of every power of ten: where a number gains a digit */
    for (unsigned long long p = 1;; p *= 10) {
        for (unsigned long long v = p - 1; v <= p + 1; v++) {
            struct rg_jrecord r = {.op = "write", .path = "/w/a", .dev = v};
            CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
            snprintf(want, sizeof want, ",\"dev\":%llu,", v);
            CHECK(strstr(line, want) != NULL);
        }
        if (p > UINT64_MAX / 10)
            break;
    }
    char id[RG_JOURNAL_ID_MAX];
    rg_journal_id(id, 1795479344362957LL, 42);
    CHECK_EQ_STR(id, "0001795479344362957-42");
}

TEST(record_that_does_not_fit_is_not_cut)
{
    char line[64];
    struct rg_jrecord r = {.op = "unlink", .path = "/w/a"};
    CHECK_EQ_INT(rg_jrecord_format(line, sizeof line, &r), 0);
}

/* A path of control characters (six bytes each, escaped) longer than the
 * formatter's room was once cut, and the record named another file. */
TEST(record_whose_escaped_path_does_not_fit_is_not_written)
{
    static char line[65536], path[3024];
    memset(path, '\x01', sizeof path - 1);
    path[0] = '/';
    struct rg_jrecord r = {.op = "truncate", .path = path, .object = "ino-1-2-3"};
    CHECK_EQ_INT(rg_jrecord_format(line, sizeof line, &r), 0);
    memset(path, 'a', sizeof path - 1);
    path[0] = '/';
    CHECK(rg_jrecord_format(line, sizeof line, &r) > 0);
}

/* What the formatter writes, the parser reads back: the path's bytes,
 * whether or not they are UTF-8. */
TEST(record_path_reads_back_as_written)
{
    static const char *paths[] = {"/w/a\"b\\c\n", "/w/caf\xe9%41", "/w/caf\xc3\xa9"};
    char line[2048], path[256];
    struct rg_jobject o;
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        struct rg_jrecord r = {.op = "end", .path = paths[i]};
        size_t n = rg_jrecord_format(line, sizeof line, &r);
        CHECK(n > 0);
        line[n - 1] = '\0';
        const char *at = line;
        CHECK(rg_jrecord_parse(&at, &o));
        CHECK(rg_jrecord_path(&o, path, sizeof path));
        CHECK_EQ_STR(path, paths[i]);
        CHECK(!rg_jrecord_path(&o, path, strlen(paths[i])));
    }
}

/* A record cut short (a full disk) that the next one ran into: the whole
 * one is read. */
TEST(record_cut_short_gives_way_to_the_one_after_it)
{
    char line[4096], path[256];
    struct rg_jrecord a = {.op = "write", .path = "/w/a"}, b = {.op = "end", .path = "/w/b"};
    size_t n = rg_jrecord_format(line, sizeof line, &a);
    CHECK(n > 0);
    n = rg_jrecord_format(line + n / 2, sizeof line - n / 2, &b);
    CHECK(n > 0);
    line[strlen(line) - 1] = '\0';
    const char *at = line;
    struct rg_jobject o;
    CHECK(rg_jrecord_parse(&at, &o));
    CHECK(rg_jrecord_path(&o, path, sizeof path));
    CHECK_EQ_STR(path, "/w/b");
    at = "{\"op\":\"end\"}";
    CHECK(!rg_jrecord_parse(&at, &o));
}

int main(void)
{
    RUN(linked_name_says_device_inode_and_ctime);
    RUN(largest_linked_name_fits);
    RUN(sha256_hex_is_valid_not_linked);
    RUN(names_that_are_not_the_journals_are_refused);
    RUN(record_line_names_its_object_or_why_not);
    RUN(record_of_a_path_that_is_not_utf8_keeps_its_bytes);
    RUN(record_numbers_read_as_printf_writes_them);
    RUN(record_that_does_not_fit_is_not_cut);
    RUN(record_whose_escaped_path_does_not_fit_is_not_written);
    RUN(record_path_reads_back_as_written);
    RUN(record_cut_short_gives_way_to_the_one_after_it);
    return check_done();
}
