/* Unit tests for the descriptor map (guard/fdmap.h): a close takes the slot
 * it peeked at, and never a file the slot no longer holds, nor one that is
 * gone. */
#include "check.h"
#include "guard/fdmap.h"
static struct rg_ctx ctx; /* large: fds[] */

static void fresh(void) { memset(&ctx, 0, sizeof ctx); }

TEST(take_peeked_empties_the_slot_it_peeked_at)
{
    struct rg_fdslot s;
    fresh();
    rg_fd_track(&ctx, 5, 1, 7, 100, NULL);
    CHECK(rg_fd_peek(&ctx, 5, &s));
    CHECK(rg_fd_take_peeked(&ctx, 5, &s));
    CHECK_EQ_INT(atomic_load(&s.ino), 7);
    CHECK_EQ_INT(s.opener, 100);
    CHECK(!rg_fd_peek(&ctx, 5, &s));
}

TEST(take_peeked_of_a_slot_tracked_anew_since_takes_the_new_file)
{
    struct rg_fdslot s, other;
    fresh();
    rg_fd_track(&ctx, 5, 1, 7, 100, NULL);
    CHECK(rg_fd_peek(&ctx, 5, &s));
    CHECK(rg_fd_take(&ctx, 5, &other)); /* another thread's close, then open */
    rg_fd_track(&ctx, 5, 2, 9, 200, NULL);
    CHECK(rg_fd_take_peeked(&ctx, 5, &s));
    CHECK_EQ_INT(atomic_load(&s.ino), 9);
    CHECK_EQ_INT(s.dev, 2);
    CHECK_EQ_INT(s.opener, 200);
    CHECK(!rg_fd_peek(&ctx, 5, &s));
}

TEST(take_peeked_of_a_slot_emptied_since_takes_nothing)
{
    struct rg_fdslot s, other;
    fresh();
    rg_fd_track(&ctx, 5, 1, 7, 100, NULL);
    CHECK(rg_fd_peek(&ctx, 5, &s));
    CHECK(rg_fd_take(&ctx, 5, &other));
    CHECK(!rg_fd_take_peeked(&ctx, 5, &s));
}

TEST(take_peeked_of_a_descriptor_above_the_fast_slots_takes_it)
{
    struct rg_fdslot s;
    fresh();
    rg_fd_track(&ctx, RG_FDMAP_SIZE + 3, 1, 7, 100, NULL);
    CHECK(rg_fd_peek(&ctx, RG_FDMAP_SIZE + 3, &s));
    CHECK(rg_fd_take_peeked(&ctx, RG_FDMAP_SIZE + 3, &s));
    CHECK_EQ_INT(atomic_load(&s.ino), 7);
    CHECK(!rg_fd_peek(&ctx, RG_FDMAP_SIZE + 3, &s));
}

int main(void)
{
    RUN(take_peeked_empties_the_slot_it_peeked_at);
    RUN(take_peeked_of_a_slot_tracked_anew_since_takes_the_new_file);
    RUN(take_peeked_of_a_slot_emptied_since_takes_nothing);
    RUN(take_peeked_of_a_descriptor_above_the_fast_slots_takes_it);
    return check_done();
}
