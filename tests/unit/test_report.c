/* Unit tests for report.c (the reason sentence and the JSON log line) and
 * for the reader of those lines, which must round-trip them. */
#include <fcntl.h>
#include <stdlib.h>

#include "check.h"
#include "core/jsonl.h"
#include "core/report.h"
static struct rg_file file = {.exists = true, .regular = true, .mtime_ns = 2000000000, .size = 7};
static struct rg_request req = {
    .op = RG_OP_OPEN, .call = "openat", .dirfd = AT_FDCWD, .path = "f", .flags = O_WRONLY};

static const char *reason_for(enum rg_reason why, bool found)
{
    static char buf[512];
    struct rg_facts facts = {
        .rec = {.found = found, .mtime_ns = 1000000000, .size = 5, .read_ns = 1500000000}};
    struct rg_report r = {&req, "f", "/w/f", &file, &facts, {RG_REFUSE, why}, NULL, NULL, false};
    rg_reason_text(buf, sizeof buf, &r, 16, "wrong magic");
    return buf;
}

TEST(unread_sentence)
{
    CHECK_EQ_STR(reason_for(RG_WHY_UNREAD, false),
                 "it has not been read in this session. Read it first, then retry.");
}

TEST(unread_sentence_of_an_unreadable_file_offers_mark)
{
    static char buf[512];
    struct rg_facts facts = {0};
    struct rg_report r = {.req = &req,
                          .shown_path = "f",
                          .abs_path = "/w/f",
                          .file = &file,
                          .facts = &facts,
                          .decision = {RG_REFUSE, RG_WHY_UNREAD},
                          .unreadable = true};
    rg_reason_text(buf, sizeof buf, &r, 16, NULL);
    CHECK(strstr(buf, "may not read it") != NULL);
    CHECK(strstr(buf, "readguard mark FILE") != NULL);
    CHECK(strstr(buf, "Read it first") == NULL);
}

TEST(changed_sentence_names_times_and_sizes)
{
    CHECK_EQ_STR(reason_for(RG_WHY_CHANGED, true),
                 "it changed since this session read it (read at "
                 "1970-01-01T00:00:01.500000000Z, now modified 1970-01-01T00:00:02.000000000Z, "
                 "size 5 -> 7). Read it again, then retry.");
}

TEST(changed_sentence_with_mtime_put_back_names_the_ctime)
{
    static char buf[512];
    struct rg_file same = {
        .exists = true, .regular = true, .mtime_ns = 1000000000, .ctime_ns = 3000000000, .size = 5};
    struct rg_facts facts = {
        .rec = {.found = true, .mtime_ns = 1000000000, .size = 5, .read_ns = 1500000000}};
    struct rg_report r = {&req, "f",  "/w/f", &same, &facts, {RG_REFUSE, RG_WHY_CHANGED},
                          NULL, NULL, false};
    rg_reason_text(buf, sizeof buf, &r, 16, NULL);
    CHECK_EQ_STR(buf, "it changed since this session read it (read at "
                      "1970-01-01T00:00:01.500000000Z, changed 1970-01-01T00:00:03.000000000Z "
                      "with the same mtime and size). Read it again, then retry.");
}

TEST(table_full_sentence_names_the_capacity)
{
    CHECK(strstr(reason_for(RG_WHY_TABLE_FULL, false), "is full (16 files)") != NULL);
}

TEST(table_full_sentence_without_room_names_the_file_system)
{
    struct rg_facts facts = {0};
    struct rg_report r = {&req, "f",  "/w/f", &file, &facts, {RG_REFUSE, RG_WHY_TABLE_FULL},
                          NULL, NULL, false};
    char buf[512];
    rg_reason_text(buf, sizeof buf, &r, 0, NULL);
    CHECK(strstr(buf, "is full: its file system has no room left") != NULL);
    CHECK(strstr(buf, "Free room there, or point READGUARD_DIR at") != NULL);
    CHECK(strstr(buf, "--capacity") == NULL);
}

TEST(no_table_sentence_names_the_problem)
{
    CHECK(strstr(reason_for(RG_WHY_NO_TABLE, false), "unusable (wrong magic)") != NULL);
}

TEST(no_table_from_a_bad_variable_advises_fixing_it)
{
    static char buf[512];
    struct rg_facts facts = {0};
    struct rg_report r = {&req, "f",  "/w/f", &file, &facts, {RG_REFUSE, RG_WHY_NO_TABLE},
                          NULL, NULL, false};
    rg_reason_text(buf, sizeof buf, &r, 16, "READGUARD_MODE is neither 'enforce' nor 'warn'");
    CHECK(strstr(buf, "Fix or unset the variable it names") != NULL);
    CHECK(strstr(buf, "readguard run") == NULL);
    CHECK(strstr(reason_for(RG_WHY_NO_TABLE, false), "readguard run") != NULL);
}

static const char *no_table_because(const char *problem)
{
    static char buf[512];
    struct rg_facts facts = {0};
    struct rg_report r = {&req, "f",  "/w/f", &file, &facts, {RG_REFUSE, RG_WHY_NO_TABLE},
                          NULL, NULL, false};
    rg_reason_text(buf, sizeof buf, &r, 16, problem);
    return buf;
}

TEST(no_table_of_another_user_advises_a_session_of_its_own)
{
    const char *text = no_table_because(RG_TABLE_OTHER_USER);
    CHECK(strstr(text, "unusable (it belongs to another user)") != NULL);
    CHECK(strstr(text, "needs a session of its own, started as that user") != NULL);
    CHECK(strstr(text, "Start a new session") == NULL);
}

TEST(no_table_in_another_users_directory_advises_a_session_of_its_own)
{
    const char *text = no_table_because(RG_TABLE_OTHER_USERS_DIR);
    CHECK(strstr(text, "unusable (it is in another user's directory") != NULL);
    CHECK(strstr(text, "needs a session of its own, started as that user") != NULL);
}

static const char *scanned_by(const char *scanner)
{
    static char buf[512];
    struct rg_facts facts = {.rec = {.found = true, .reader = 321 | RG_READER_SCAN}};
    struct rg_report r = {&req,    "f",  "/w/f", &file, &facts, {RG_REFUSE, RG_WHY_SCANNED},
                          scanner, NULL, false};
    rg_reason_text(buf, sizeof buf, &r, 16, NULL);
    return buf;
}

TEST(sealed_sentence_says_to_steer_from_outside)
{
    CHECK(strstr(reason_for(RG_WHY_SEALED, false), "this session's own table") != NULL);
    CHECK(strstr(reason_for(RG_WHY_SEALED, false), "from outside it") != NULL);
}

TEST(sealed_journal_sentence_names_the_journal_not_the_table)
{
    static char buf[512];
    struct rg_file kept = {.exists = true, .regular = true, .in_journal = true};
    struct rg_facts facts = {.sealed = true};
    struct rg_report r = {&req, "f",  "/w/f", &kept, &facts, {RG_REFUSE, RG_WHY_SEALED},
                          NULL, NULL, false};
    rg_reason_text(buf, sizeof buf, &r, 16, NULL);
    CHECK(strstr(buf, "this session's journal") != NULL);
    CHECK(strstr(buf, "table") == NULL);
}

TEST(scanned_sentence_names_the_scanner)
{
    CHECK_EQ_STR(scanned_by("grep"),
                 "it was only scanned by `grep` (pid 321, one of many files read at once). "
                 "Read it to write it, then retry.");
}

TEST(scanned_sentence_without_a_name_says_so)
{
    CHECK(strstr(scanned_by(""), "scanned by `?` (pid 321") != NULL);
    CHECK(strstr(scanned_by(NULL), "scanned by `?` (pid 321") != NULL);
}

TEST(reason_text_is_cut_to_the_buffer)
{
    char small[10];
    struct rg_facts facts = {0};
    struct rg_report r = {&req, "f",  "/w/f", &file, &facts, {RG_REFUSE, RG_WHY_UNREAD},
                          NULL, NULL, false};
    CHECK_EQ_INT(rg_reason_text(small, sizeof small, &r, 0, NULL), 9);
    CHECK_EQ_STR(small, "it has no");
}

static struct rg_log_line line_with(const char *path, bool recorded)
{
    return (struct rg_log_line){.time_ns = 3000000000,
                                .pid = 42,
                                .prog = "sh",
                                .op = "open",
                                .call = "openat",
                                .path = path,
                                .decision = "refuse",
                                .reason = "changed",
                                .recorded = recorded,
                                .recorded_mtime_ns = 1000000000,
                                .recorded_size = 5,
                                .current_mtime_ns = 2000000000,
                                .current_size = 7};
}

TEST(log_line_has_every_field_in_order)
{
    char out[4096];
    struct rg_log_line l = line_with("/w/f", true);
    size_t n = rg_log_format(out, sizeof out, &l);
    CHECK_EQ_STR(out, "{\"time\":\"1970-01-01T00:00:03.000000000Z\",\"pid\":42,\"prog\":\"sh\","
                      "\"op\":\"open\",\"call\":\"openat\",\"path\":\"/w/f\","
                      "\"decision\":\"refuse\",\"reason\":\"changed\","
                      "\"recorded_mtime\":\"1970-01-01T00:00:01.000000000Z\","
                      "\"current_mtime\":\"1970-01-01T00:00:02.000000000Z\","
                      "\"recorded_size\":5,\"current_size\":7}\n");
    CHECK_EQ_INT(n, strlen(out));
}

TEST(log_line_names_its_session_last)
{
    char out[4096];
    struct rg_log_line l = line_with("/w/f", true);
    l.session = "1795468256807933359-12987";
    rg_log_format(out, sizeof out, &l);
    CHECK(strstr(out, ",\"current_size\":7,\"session\":\"1795468256807933359-12987\"}\n") != NULL);
}

TEST(log_line_without_record_has_nulls)
{
    char out[4096];
    struct rg_log_line l = line_with("/w/f", false);
    rg_log_format(out, sizeof out, &l);
    CHECK(strstr(out, "\"recorded_mtime\":null") != NULL);
    CHECK(strstr(out, "\"recorded_size\":null") != NULL);
}

TEST(log_line_too_long_for_the_buffer_is_zero)
{
    char out[64];
    struct rg_log_line l = line_with("/w/f", true);
    CHECK_EQ_INT(rg_log_format(out, sizeof out, &l), 0);
}

TEST(reader_round_trips_a_hostile_path)
{
    char out[4096];
    const char *path = "/w/a \"quoted\"\\ tab\t nl\n ctl\x01 utf8 \xc3\xa9 bad \xff end";
    struct rg_log_line l = line_with(path, true);
    rg_log_format(out, sizeof out, &l);
    out[strlen(out) - 1] = '\0'; /* the newline */
    static struct rg_jobject o;
    CHECK(rg_jsonl_parse(out, &o));
    CHECK_EQ_STR(rg_jsonl_get(&o, "path"),
                 "/w/a \"quoted\"\\ tab\t nl\n ctl\x01 utf8 \xc3\xa9 bad \xef\xbf\xbd end");
    CHECK_EQ_STR(rg_jsonl_get(&o, "pid"), "42");
    CHECK_EQ_STR(rg_jsonl_get(&o, "recorded_size"), "5");
    CHECK(rg_jsonl_get(&o, "missing") == NULL);
}

TEST(reader_gives_null_as_absent)
{
    static struct rg_jobject o;
    CHECK(rg_jsonl_parse("{\"a\":null,\"b\":true}", &o));
    CHECK(rg_jsonl_get(&o, "a") == NULL);
    CHECK_EQ_STR(rg_jsonl_get(&o, "b"), "true");
}

TEST(reader_decodes_surrogate_pairs_and_lone_surrogates)
{
    static struct rg_jobject o;
    CHECK(rg_jsonl_parse("{\"s\":\"\\ud83d\\ude00|\\ud800|\\u00e9\"}", &o));
    CHECK_EQ_STR(rg_jsonl_get(&o, "s"), "\xf0\x9f\x98\x80|\xef\xbf\xbd|\xc3\xa9");
}

TEST(reader_rejects_what_is_not_a_flat_object)
{
    static struct rg_jobject o;
    const char *bad[] = {"",
                         "[]",
                         "{",
                         "{\"a\"}",
                         "{\"a\":}",
                         "{\"a\":\"x}",
                         "{\"a\":1,}",
                         "{\"a\":1} x",
                         "{\"a\":\"\\q\"}",
                         "{\"a\":\"\\u12\"}",
                         "{\"a\":\"raw\x01\"}",
                         "not json"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (!CHECK(!rg_jsonl_parse(bad[i], &o)))
            fprintf(stderr, "#     accepted: %s\n", bad[i]);
}

TEST(reader_accepts_an_empty_object_and_spaces)
{
    static struct rg_jobject o;
    CHECK(rg_jsonl_parse(" { } ", &o));
    CHECK_EQ_INT(o.n, 0);
    CHECK(rg_jsonl_parse("{ \"k\" : \"v\" , \"n\" : -1 }", &o));
    CHECK_EQ_STR(rg_jsonl_get(&o, "n"), "-1");
}

TEST(reader_refuses_values_larger_than_its_buffer)
{
    static struct rg_jobject o;
    size_t n = sizeof o.buf + 16;
    char *big = malloc(n + 16);
    memcpy(big, "{\"k\":\"", 6);
    memset(big + 6, 'x', n);
    memcpy(big + 6 + n, "\"}", 3);
    CHECK(!rg_jsonl_parse(big, &o));
    free(big);
}

TEST(replaced_sentence_names_when_it_was_read)
{
    static char buf[512];
    struct rg_facts facts = {0};
    struct rg_record was = {.found = true, .read_ns = 1500000000};
    struct rg_report r = {&req, "f",  "/w/f", &file, &facts, {RG_REFUSE, RG_WHY_REPLACED},
                          NULL, &was, false};
    rg_reason_text(buf, sizeof buf, &r, 16, NULL);
    CHECK_EQ_STR(buf, "it was replaced by another file since this session read it (read at "
                      "1970-01-01T00:00:01.500000000Z). Read it again, then retry.");
}

TEST(replaced_sentence_without_the_record_still_says_replaced)
{
    CHECK_EQ_STR(reason_for(RG_WHY_REPLACED, false),
                 "it was replaced by another file since this session read it. Read it "
                 "again, then retry.");
}

TEST(replaced_is_logged_as_replaced)
{
    CHECK_EQ_STR(rg_reason_name(RG_WHY_REPLACED), "replaced");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_UNREAD), "unread");
}

int main(void)
{
    RUN(log_line_names_its_session_last);
    RUN(unread_sentence);
    RUN(unread_sentence_of_an_unreadable_file_offers_mark);
    RUN(replaced_sentence_names_when_it_was_read);
    RUN(replaced_sentence_without_the_record_still_says_replaced);
    RUN(replaced_is_logged_as_replaced);
    RUN(changed_sentence_names_times_and_sizes);
    RUN(changed_sentence_with_mtime_put_back_names_the_ctime);
    RUN(table_full_sentence_names_the_capacity);
    RUN(table_full_sentence_without_room_names_the_file_system);
    RUN(no_table_sentence_names_the_problem);
    RUN(no_table_from_a_bad_variable_advises_fixing_it);
    RUN(no_table_of_another_user_advises_a_session_of_its_own);
    RUN(no_table_in_another_users_directory_advises_a_session_of_its_own);
    RUN(reason_text_is_cut_to_the_buffer);
    RUN(sealed_sentence_says_to_steer_from_outside);
    RUN(sealed_journal_sentence_names_the_journal_not_the_table);
    RUN(scanned_sentence_names_the_scanner);
    RUN(scanned_sentence_without_a_name_says_so);
    RUN(log_line_has_every_field_in_order);
    RUN(log_line_without_record_has_nulls);
    RUN(log_line_too_long_for_the_buffer_is_zero);
    RUN(reader_round_trips_a_hostile_path);
    RUN(reader_gives_null_as_absent);
    RUN(reader_decodes_surrogate_pairs_and_lone_surrogates);
    RUN(reader_rejects_what_is_not_a_flat_object);
    RUN(reader_accepts_an_empty_object_and_spaces);
    RUN(reader_refuses_values_larger_than_its_buffer);
    return check_done();
}
