/* Unit tests for an entry's writer count (core/entry.c): opens and closes
 * for writing, acts that count as a writer, and saturation. */
#include "table_rooted.h"

TEST(writer_open_counts_and_remembers_pid)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_open(e, 200);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 2);
    CHECK_EQ_INT(r.writer_pid, 200);
    drop(&f);
}

TEST(writer_close_counts_down_and_never_underflows)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 1);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 0);
    rg_entry_writer_close(e);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 0);
    drop(&f);
}

TEST(writer_count_saturates_without_touching_the_pid)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    for (uint32_t i = 0; i < RG_WRITING_MAX + 5; i++)
        rg_entry_writer_open(e, 4194303); /* the largest Linux pid */
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, RG_WRITING_MAX);
    CHECK_EQ_INT(r.writer_pid, 4194303);
    rg_entry_writer_close(e);
    r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, RG_WRITING_MAX - 1);
    CHECK_EQ_INT(r.writer_pid, 4194303);
    drop(&f);
}

/* An own act in flight (a rename, a chmod) counts as a writer, so a sibling
 * waits for its restamp, but names no process: none holds the file for it,
 * and a killed one must not pass for a live writer. */
TEST(act_counts_as_a_writer_without_naming_one)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_writer_close(e);
    rg_entry_act_begin(e);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 1);
    CHECK_EQ_INT(r.writer_pid, 0);
    rg_entry_writer_close(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, 0);
    drop(&f);
}

TEST(act_keeps_the_writer_already_named)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    rg_entry_writer_open(e, 100);
    rg_entry_act_begin(e);
    struct rg_record r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 2);
    CHECK_EQ_INT(r.writer_pid, 100);
    rg_entry_writer_close(e);
    r = rg_entry_load(&f.t, e);
    CHECK_EQ_INT(r.writers, 1);
    CHECK_EQ_INT(r.writer_pid, 100);
    drop(&f);
}

TEST(act_count_saturates)
{
    struct fixture f = make_table(16, false);
    struct rg_entry *e = rg_table_find_or_add(&f.t, 1, 1);
    for (uint32_t i = 0; i < RG_WRITING_MAX + 5; i++)
        rg_entry_act_begin(e);
    CHECK_EQ_INT(rg_entry_load(&f.t, e).writers, RG_WRITING_MAX);
    drop(&f);
}

int main(void)
{
    RUN(writer_open_counts_and_remembers_pid);
    RUN(writer_close_counts_down_and_never_underflows);
    RUN(writer_count_saturates_without_touching_the_pid);
    RUN(act_counts_as_a_writer_without_naming_one);
    RUN(act_keeps_the_writer_already_named);
    RUN(act_count_saturates);
    return check_done();
}
