/* Unit tests for the content hash an entry keeps of the bytes read
 * (core/entry.c). */
#include "table_rooted.h"

TEST(stamp_keeps_the_hash_of_the_read)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 10, .size = 3, .hash = 77};
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 20));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 77);
    drop(&f);
}

TEST(rereading_the_same_stamp_with_new_bytes_updates_the_hash)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 10, .size = 3, .hash = 77};
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 20));
    st.hash = 78; /* changed within the tick: same stamp, other bytes */
    rg_entry_stamp(&f.t, e, &st, false, 21);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 78);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).read_ns, 21); /* hashed as of then */
    st.hash = 0;                                      /* a re-read that did not hash leaves it */
    rg_entry_stamp(&f.t, e, &st, false, 22);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 78);
    drop(&f);
}

TEST(own_write_restamp_drops_the_hash)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 10, .size = 3, .hash = 77};
    CHECK(rg_entry_stamp(&f.t, e, &st, false, 20));
    struct rg_stamp w = {.mtime_ns = 30, .ctime_ns = 30, .size = 4};
    CHECK(rg_entry_stamp(&f.t, e, &w, true, 40));
    CHECK_EQ_INT(rg_entry_load(&f.t, e).hash, 0);
    drop(&f);
}

int main(void)
{
    RUN(stamp_keeps_the_hash_of_the_read);
    RUN(rereading_the_same_stamp_with_new_bytes_updates_the_hash);
    RUN(own_write_restamp_drops_the_hash);
    return check_done();
}
