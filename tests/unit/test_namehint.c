/* Unit tests for namehint.c: the key of a name, and when a refusal of a
 * file found unread may say it was replaced since it was read. */
#include "check.h"
#include "core/namehint.h"
#define S 1000000000LL

/* The file refused now: inode 7, ctime at 100 s. */
static const struct rg_file now = {
    .exists = true, .regular = true, .dev = 1, .ino = 7, .ctime_ns = 100 * S};

/* What was read under its name: inode 5, read at 50 s. */
static struct rg_named read_as(uint64_t ino, bool found)
{
    return (struct rg_named){.dev = 1, .ino = ino, .rec = {.found = found, .read_ns = 50 * S}};
}

TEST(key_ignores_a_leading_dot_slash)
{
    CHECK_EQ_INT(rg_name_key("./f"), rg_name_key("f"));
    CHECK_EQ_INT(rg_name_key(".//./src/f.c"), rg_name_key("src/f.c"));
}

TEST(key_tells_names_apart)
{
    CHECK(rg_name_key("a/f") != rg_name_key("b/f"));
    CHECK(rg_name_key("f") != rg_name_key("/w/f"));
    CHECK(rg_name_key("f") != rg_name_key("f "));
}

TEST(key_is_never_zero)
{
    CHECK(rg_name_key("") != 0);
    CHECK(rg_name_key("f") != 0);
}

TEST(a_name_never_noted_is_unread)
{
    CHECK_EQ_INT(rg_unread_reason(&now, 90 * S, NULL), RG_WHY_UNREAD);
}

TEST(a_name_read_as_another_file_born_since_is_replaced)
{
    struct rg_named then = read_as(5, true);
    CHECK_EQ_INT(rg_unread_reason(&now, 90 * S, &then), RG_WHY_REPLACED);
}

TEST(a_read_forgotten_since_is_unread)
{
    struct rg_named then = read_as(5, false); /* reset, forget, or another generation */
    CHECK_EQ_INT(rg_unread_reason(&now, 90 * S, &then), RG_WHY_UNREAD);
}

TEST(the_same_inode_is_unread)
{
    struct rg_named then = read_as(7, true);
    CHECK_EQ_INT(rg_unread_reason(&now, 90 * S, &then), RG_WHY_UNREAD);
}

TEST(the_same_inode_number_on_another_device_is_replaced)
{
    struct rg_named then = read_as(7, true);
    then.dev = 2;
    CHECK_EQ_INT(rg_unread_reason(&now, 90 * S, &then), RG_WHY_REPLACED);
}

TEST(a_file_born_before_the_read_is_unread)
{
    /* Another directory's file of the same relative name, older than the
     * read: changed since (ctime), but never the file read there. */
    struct rg_named then = read_as(5, true);
    CHECK_EQ_INT(rg_unread_reason(&now, 10 * S, &then), RG_WHY_UNREAD);
}

TEST(without_a_birth_time_a_ctime_after_the_read_is_replaced)
{
    struct rg_named then = read_as(5, true);
    CHECK_EQ_INT(rg_unread_reason(&now, 0, &then), RG_WHY_REPLACED);
}

TEST(without_a_birth_time_a_ctime_before_the_read_is_unread)
{
    struct rg_named then = read_as(5, true);
    struct rg_file old = now;
    old.ctime_ns = 20 * S;
    CHECK_EQ_INT(rg_unread_reason(&old, 0, &then), RG_WHY_UNREAD);
}

TEST(a_birth_within_a_tick_before_the_read_is_replaced)
{
    /* The file system's clock lags the wall clock by up to a tick. */
    struct rg_named then = read_as(5, true);
    CHECK_EQ_INT(rg_unread_reason(&now, 50 * S - RG_TICK_NS, &then), RG_WHY_REPLACED);
    CHECK_EQ_INT(rg_unread_reason(&now, 50 * S - RG_TICK_NS - 1, &then), RG_WHY_UNREAD);
}

int main(void)
{
    RUN(key_ignores_a_leading_dot_slash);
    RUN(key_tells_names_apart);
    RUN(key_is_never_zero);
    RUN(a_name_never_noted_is_unread);
    RUN(a_name_read_as_another_file_born_since_is_replaced);
    RUN(a_read_forgotten_since_is_unread);
    RUN(the_same_inode_is_unread);
    RUN(the_same_inode_number_on_another_device_is_replaced);
    RUN(a_file_born_before_the_read_is_unread);
    RUN(without_a_birth_time_a_ctime_after_the_read_is_replaced);
    RUN(without_a_birth_time_a_ctime_before_the_read_is_unread);
    RUN(a_birth_within_a_tick_before_the_read_is_replaced);
    return check_done();
}
