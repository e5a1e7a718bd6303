/* Unit tests for rg_json_lookup (shim/core/jsonl.c): the reader of Claude
 * Code's hook input, a nested JSON document whose tool input and response
 * may hold anything the model or a file did. */
#include <stdlib.h>

#include "check.h"
#include "core/jsonl.h"
static char out[256];

static bool look(const char *doc, const char *a, const char *b)
{
    const char *keys[] = {a, b, NULL};
    memset(out, 'x', sizeof out);
    return rg_json_lookup(doc, keys, out, sizeof out);
}

TEST(finds_a_nested_string)
{
    CHECK(look("{\"session_id\":\"s\",\"tool_input\":{\"file_path\":\"/w/a\"}}", "tool_input",
               "file_path"));
    CHECK_EQ_STR(out, "/w/a");
    CHECK(look(" { \"session_id\" : \"s-1\" } ", "session_id", NULL));
    CHECK_EQ_STR(out, "s-1");
}

TEST(unescapes_quotes_newlines_and_non_ascii)
{
    CHECK(look("{\"p\":\"it's \\\"q\\\"\\nnew \\u00e9t\\u00e9 \xe2\x82\xac \\ud83d\\ude00\"}", "p",
               NULL));
    CHECK_EQ_STR(out, "it's \"q\"\nnew \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(skips_members_that_nest_or_look_like_the_key)
{
    const char *doc = "{\"tool_response\":{\"file_path\":\"/wrong\",\"a\":[1,{\"}\":\"]\"},"
                      "\"\\\"file_path\\\"\",[]],\"b\":null},\"tool_input\":{\"content\":"
                      "\"{\\\"file_path\\\":\\\"/no\\\"}\",\"n\":-1.5e3,\"t\":true,"
                      "\"file_path\":\"/right\"}}";
    CHECK(look(doc, "tool_input", "file_path"));
    CHECK_EQ_STR(out, "/right");
}

TEST(matches_a_key_written_with_escapes)
{
    CHECK(look("{\"\\u0066ile_path\":\"/a\"}", "file_path", NULL));
    CHECK_EQ_STR(out, "/a");
}

TEST(takes_the_first_of_duplicate_keys)
{
    CHECK(look("{\"k\":\"1\",\"k\":\"2\"}", "k", NULL));
    CHECK_EQ_STR(out, "1");
}

TEST(gives_numbers_and_booleans_as_written)
{
    CHECK(look("{\"i\":{\"offset\":50,\"limit\":2}}", "i", "offset"));
    CHECK_EQ_STR(out, "50");
    CHECK(look("{\"b\":false}", "b", NULL));
    CHECK_EQ_STR(out, "false");
}

TEST(absent_null_object_and_array_are_not_found)
{
    CHECK(!look("{\"a\":\"1\"}", "b", NULL));
    CHECK(!look("{}", "a", NULL));
    CHECK(!look("{\"a\":null}", "a", NULL));
    CHECK(!look("{\"a\":{\"b\":1}}", "a", NULL));
    CHECK(!look("{\"a\":[\"x\"]}", "a", NULL));
    CHECK(!look("{\"a\":\"s\"}", "a", "b")); /* a string has no members */
}

TEST(refuses_malformed_documents_on_the_way)
{
    CHECK(!look("", "a", NULL));
    CHECK(!look("[\"a\"]", "a", NULL));
    CHECK(!look("{\"x\":\"unterminated", "a", NULL));
    CHECK(!look("{\"x\":[1,2,\"a\":\"b\"}", "a", NULL));
    CHECK(!look("{\"x\":\"\\q\",\"a\":\"b\"}", "a", NULL));
    CHECK(!look("{\"x\" 1,\"a\":\"b\"}", "a", NULL));
    CHECK(!look("{\"a\":\"raw\nnewline\"}", "a", NULL));
    CHECK(!look("{\"x\":,\"a\":\"b\"}", "a", NULL));
    CHECK(!look("{\"a\":\"\\u12\"}", "a", NULL));
}

TEST(refuses_a_value_larger_than_the_buffer)
{
    char doc[700];
    snprintf(doc, sizeof doc, "{\"a\":\"%0300d\",\"n\":%0300d}", 0, 0);
    CHECK(!look(doc, "a", NULL));
    CHECK(!look(doc, "n", NULL));
    const char *keys[] = {"a", NULL};
    char tiny[1];
    CHECK(!rg_json_lookup("{\"a\":\"\"}", keys, tiny, 0));
    CHECK(rg_json_lookup("{\"a\":\"\"}", keys, tiny, 1) && tiny[0] == '\0');
}

TEST(bounds_the_nesting_it_skips)
{
    char doc[4096];
    size_t n = 0;
    n += (size_t)snprintf(doc + n, sizeof doc - n, "{\"x\":");
    for (int i = 0; i < 1000; i++)
        doc[n++] = '[';
    doc[n] = '\0';
    CHECK(!look(doc, "a", NULL));
    n = (size_t)snprintf(doc, sizeof doc, "{\"x\":");
    for (int i = 0; i < RG_JSON_DEPTH - 1; i++)
        doc[n++] = '[';
    for (int i = 0; i < RG_JSON_DEPTH - 1; i++)
        doc[n++] = ']';
    snprintf(doc + n, sizeof doc - n, ",\"a\":\"deep\"}");
    CHECK(look(doc, "a", NULL));
    CHECK_EQ_STR(out, "deep");
}

TEST(tells_an_object_from_what_is_not_json)
{
    CHECK(rg_json_is_object(" {\"a\":{\"b\":[1,\"}\"]}} \n"));
    CHECK(rg_json_is_object("{}"));
    CHECK(!rg_json_is_object(""));
    CHECK(!rg_json_is_object("hello"));
    CHECK(!rg_json_is_object("[1]"));
    CHECK(!rg_json_is_object("{\"a\":1"));
    CHECK(!rg_json_is_object("{\"a\":1} x"));
}

int main(void)
{
    RUN(finds_a_nested_string);
    RUN(unescapes_quotes_newlines_and_non_ascii);
    RUN(skips_members_that_nest_or_look_like_the_key);
    RUN(matches_a_key_written_with_escapes);
    RUN(takes_the_first_of_duplicate_keys);
    RUN(gives_numbers_and_booleans_as_written);
    RUN(absent_null_object_and_array_are_not_found);
    RUN(refuses_malformed_documents_on_the_way);
    RUN(refuses_a_value_larger_than_the_buffer);
    RUN(bounds_the_nesting_it_skips);
    RUN(tells_an_object_from_what_is_not_json);
    return check_done();
}
