/* Unit tests for the roots a table stores (core/table.c): iterating them and
 * the colon-joined list the command prints. */
#include <sys/mman.h>

#include "table_rooted.h"

TEST(roots_iterate_in_order)
{
    struct fixture f = make_table(16, false);
    const char *r = rg_table_root(f.t.hdr, NULL);
    CHECK_EQ_STR(r, "/a");
    r = r ? rg_table_root(f.t.hdr, r) : NULL;
    CHECK_EQ_STR(r, "/b");
    r = r ? rg_table_root(f.t.hdr, r) : NULL;
    CHECK(r == NULL);
    drop(&f);
}

TEST(roots_single_slash)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    const char *slash[] = {"/"};
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = slash, .nroots = 1};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    const char *r = rg_table_root(map, NULL);
    CHECK_EQ_STR(r, "/");
    CHECK(r == NULL || rg_table_root(map, r) == NULL);
    munmap(map, size);
}

/* A table whose roots are the given ones, for rg_table_roots_list. */
static void *table_with_roots(const char *const *roots, size_t n)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = roots, .nroots = n};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    return map;
}

TEST(roots_list_joins_with_colons)
{
    void *map = table_with_roots(roots_ab, 2);
    char out[16];
    rg_table_roots_list(map, out, sizeof out);
    CHECK_EQ_STR(out, "/a:/b");
    munmap(map, rg_table_file_size(16));
}

/* Split at its colon, "/x:/y" would name /x and /y instead. */
TEST(roots_list_is_slash_when_a_root_has_a_colon)
{
    const char *roots[] = {"/a", "/x:/y"};
    void *map = table_with_roots(roots, 2);
    char out[16];
    rg_table_roots_list(map, out, sizeof out);
    CHECK_EQ_STR(out, "/");
    munmap(map, rg_table_file_size(16));
}

TEST(roots_list_is_slash_when_it_does_not_fit)
{
    void *map = table_with_roots(roots_ab, 2);
    char exact[6], short_by_one[5];
    rg_table_roots_list(map, exact, sizeof exact);
    CHECK_EQ_STR(exact, "/a:/b");
    rg_table_roots_list(map, short_by_one, sizeof short_by_one);
    CHECK_EQ_STR(short_by_one, "/");
    munmap(map, rg_table_file_size(16));
}

TEST(roots_list_is_slash_without_roots)
{
    void *map = table_with_roots(NULL, 0);
    char out[16];
    rg_table_roots_list(map, out, sizeof out);
    CHECK_EQ_STR(out, "/");
    munmap(map, rg_table_file_size(16));
}

TEST(roots_none)
{
    size_t size = rg_table_file_size(16);
    void *map = map_anon(size, false);
    struct rg_settings s = {
        .mode = RG_MODE_ENFORCE, .capacity = 16, .log_path = LOG, .roots = NULL, .nroots = 0};
    CHECK_EQ_INT(rg_table_format(map, size, &s, UID, 1, 1), 0);
    CHECK(rg_table_root(map, NULL) == NULL);
    CHECK(rg_table_validate(map, size, UID) == NULL);
    munmap(map, size);
}

int main(void)
{
    RUN(roots_iterate_in_order);
    RUN(roots_single_slash);
    RUN(roots_none);
    RUN(roots_list_joins_with_colons);
    RUN(roots_list_is_slash_when_a_root_has_a_colon);
    RUN(roots_list_is_slash_when_it_does_not_fit);
    RUN(roots_list_is_slash_without_roots);
    return check_done();
}
