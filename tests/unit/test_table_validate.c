/* Unit tests for rg_table_validate (core/table.c): a mapping is used only
 * when every field of its header is one this build wrote. */
#include "table_rooted.h"

#define CHECK_REASON(why, want)                                                   \
    do {                                                                          \
        const char *why_ = (why);                                                 \
        if (!CHECK(why_ && strstr(why_, want)))                                   \
            fprintf(stderr, "#     reason: %s\n", why_ ? why_ : "(null: valid)"); \
    } while (0)

/* A valid table, corrupted by the caller, then validated at size + delta. */
static struct fixture good_copy(void)
{
    static struct fixture good;
    if (!good.map)
        good = make_table(16, false);
    struct fixture f = good;
    f.map = map_anon(f.size, false);
    memcpy(f.map, good.map, f.size);
    rg_table_bind(&f.t, f.map, f.size);
    return f;
}

TEST(validate_rejects_too_small)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, RG_HEADER_SIZE - 1, UID), "too small");
    CHECK_REASON(rg_table_validate(f.map, 0, UID), "too small");
    drop(&f);
}

TEST(validate_rejects_wrong_magic)
{
    struct fixture f = good_copy();
    f.t.hdr->magic[7] ^= 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "wrong magic");
    drop(&f);
}

TEST(validate_rejects_other_version)
{
    struct fixture f = good_copy();
    f.t.hdr->version = RG_TABLE_VERSION + 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "another version");
    drop(&f);
}

TEST(validate_rejects_other_entry_size)
{
    struct fixture f = good_copy();
    f.t.hdr->entry_size = 48;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "another version");
    drop(&f);
}

TEST(validate_rejects_other_header_size)
{
    struct fixture f = good_copy();
    f.t.hdr->header_size = RG_HEADER_SIZE * 2;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "another version");
    drop(&f);
}

TEST(validate_rejects_wrong_uid)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, f.size, UID + 1), "another user");
    CHECK_REASON(rg_table_validate(f.map, f.size, 0), "another user");
    drop(&f);
}

TEST(validate_rejects_truncated_size)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, f.size - 1, UID), "truncated");
    CHECK_REASON(rg_table_validate(f.map, RG_HEADER_SIZE, UID), "truncated");
    drop(&f);
}

TEST(validate_rejects_padded_size)
{
    struct fixture f = good_copy();
    CHECK_REASON(rg_table_validate(f.map, f.size + 4096, UID), "padded");
    drop(&f);
}

TEST(validate_rejects_file_size_mismatch)
{
    struct fixture f = good_copy();
    f.t.hdr->file_size += sizeof(struct rg_entry);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    /* Even when the mapping agrees with the header's wrong size. */
    CHECK_REASON(rg_table_validate(f.map, f.size + sizeof(struct rg_entry), UID), "sizes disagree");
    drop(&f);
}

TEST(validate_rejects_capacity_out_of_range)
{
    struct fixture f = good_copy();
    f.t.hdr->capacity = RG_MIN_CAPACITY - 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    f.t.hdr->capacity = RG_MAX_CAPACITY * 2;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    drop(&f);
}

TEST(validate_rejects_wrong_index_slots)
{
    struct fixture f = good_copy();
    f.t.hdr->index_slots = 512;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "sizes disagree");
    drop(&f);
}

TEST(validate_rejects_mode_out_of_range)
{
    struct fixture f = good_copy();
    f.t.hdr->mode = RG_MODE_WARN + 1;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    f.t.hdr->mode = UINT32_MAX;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_unterminated_roots)
{
    struct fixture f = good_copy();
    memset(f.t.hdr->roots, '/', sizeof f.t.hdr->roots);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_relative_root)
{
    struct fixture f = good_copy();
    CHECK_EQ_STR(f.t.hdr->roots + 3, "/b");
    f.t.hdr->roots[3] = 'b'; /* "/a\0bb\0" */
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_more_roots_than_stored)
{
    struct fixture f = good_copy();
    f.t.hdr->nroots = 3;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    f.t.hdr->nroots = UINT32_MAX;
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_unterminated_log_path)
{
    struct fixture f = good_copy();
    memset(f.t.hdr->log_path, 'x', sizeof f.t.hdr->log_path);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "settings are corrupt");
    drop(&f);
}

TEST(validate_rejects_generation_zero)
{
    struct fixture f = good_copy();
    atomic_store(&f.t.hdr->generation, 0);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "counters are corrupt");
    drop(&f);
}

TEST(validate_rejects_used_beyond_capacity)
{
    struct fixture f = good_copy();
    atomic_store(&f.t.hdr->backed, f.t.hdr->capacity);
    atomic_store(&f.t.hdr->used, f.t.hdr->capacity);
    CHECK(rg_table_validate(f.map, f.size, UID) == NULL);
    atomic_store(&f.t.hdr->used, f.t.hdr->capacity + 1);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "counters are corrupt");
    atomic_store(&f.t.hdr->used, UINT32_MAX);
    CHECK_REASON(rg_table_validate(f.map, f.size, UID), "counters are corrupt");
    drop(&f);
}

TEST(used_is_clamped_to_the_capacity_bound_at_attach)
{
    struct fixture f = make_table(16, false);
    atomic_store(&f.t.hdr->used, 3);
    CHECK_EQ_INT(rg_table_used(&f.t), 3);
    atomic_store(&f.t.hdr->used, 16);
    CHECK_EQ_INT(rg_table_used(&f.t), 16);
    /* Rewritten after attach, as any program of the user may. */
    atomic_store(&f.t.hdr->used, UINT32_MAX);
    CHECK_EQ_INT(rg_table_used(&f.t), 16);
    drop(&f);
}

int main(void)
{
    RUN(validate_rejects_too_small);
    RUN(validate_rejects_wrong_magic);
    RUN(validate_rejects_other_version);
    RUN(validate_rejects_other_entry_size);
    RUN(validate_rejects_other_header_size);
    RUN(validate_rejects_wrong_uid);
    RUN(validate_rejects_truncated_size);
    RUN(validate_rejects_padded_size);
    RUN(validate_rejects_file_size_mismatch);
    RUN(validate_rejects_capacity_out_of_range);
    RUN(validate_rejects_wrong_index_slots);
    RUN(validate_rejects_mode_out_of_range);
    RUN(validate_rejects_unterminated_roots);
    RUN(validate_rejects_relative_root);
    RUN(validate_rejects_more_roots_than_stored);
    RUN(validate_rejects_unterminated_log_path);
    RUN(validate_rejects_generation_zero);
    RUN(validate_rejects_used_beyond_capacity);
    RUN(used_is_clamped_to_the_capacity_bound_at_attach);
    return check_done();
}
