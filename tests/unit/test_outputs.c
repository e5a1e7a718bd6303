/* Unit tests for outputs.c: the list of files a session's launchers hand
 * its tree to write, in the table's header. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/outputs.h"

/* A zeroed header, as a freshly formatted table has, on the 64-byte
 * boundary its type asks for, as a mapping's is: calloc's 16 is not. */
static struct rg_header *header(void)
{
    struct rg_header *h = aligned_alloc(_Alignof(struct rg_header), sizeof *h);
    if (!h)
        exit(2);
    memset(h, 0, sizeof *h);
    return h;
}

static void a_new_table_lists_no_output(void)
{
    struct rg_header *h = header();
    CHECK(!rg_outputs_has(h, 1, 2));
    free(h);
}

static void an_added_output_is_listed(void)
{
    struct rg_header *h = header();
    rg_outputs_add(h, 1, 2);
    CHECK(rg_outputs_has(h, 1, 2));
    free(h);
}

static void another_inode_of_the_same_device_is_not_listed(void)
{
    struct rg_header *h = header();
    rg_outputs_add(h, 1, 2);
    CHECK(!rg_outputs_has(h, 1, 3));
    CHECK(!rg_outputs_has(h, 2, 2));
    free(h);
}

static void an_output_added_twice_takes_one_slot(void)
{
    struct rg_header *h = header();
    rg_outputs_add(h, 1, 2);
    rg_outputs_add(h, 1, 2);
    CHECK(atomic_load(&h->outputs[1]) == 0);
    free(h);
}

static void outputs_after_the_first_are_listed_too(void)
{
    struct rg_header *h = header();
    for (uint64_t ino = 1; ino <= RG_OUTPUT_SLOTS; ino++)
        rg_outputs_add(h, 7, ino);
    CHECK(rg_outputs_has(h, 7, RG_OUTPUT_SLOTS));
    CHECK(!rg_outputs_has(h, 7, RG_OUTPUT_SLOTS + 1));
    free(h);
}

/* Overflowed, the list cannot tell: every file is taken for an output,
 * which costs a copy, never a loss. */
static void a_list_that_overflowed_matches_every_file(void)
{
    struct rg_header *h = header();
    for (uint64_t ino = 1; ino <= RG_OUTPUT_SLOTS + 1; ino++)
        rg_outputs_add(h, 7, ino);
    CHECK(rg_outputs_has(h, 9, 12345));
    free(h);
}

int main(void)
{
    RUN(a_new_table_lists_no_output);
    RUN(an_added_output_is_listed);
    RUN(another_inode_of_the_same_device_is_not_listed);
    RUN(an_output_added_twice_takes_one_slot);
    RUN(outputs_after_the_first_are_listed_too);
    RUN(a_list_that_overflowed_matches_every_file);
    return check_done();
}
