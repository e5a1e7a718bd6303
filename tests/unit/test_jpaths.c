/* Unit tests for guard/journal/paths.c: the journal's objects/ and index paths,
 * built once per process and then read from the cache, are what building
 * them each time gave; a caller that finds them being built gets its own. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/table.h"
#include "guard/journal/paths.h"
static struct rg_header *header(const char *dir, int64_t created_ns, int32_t pid)
{
    /* Its counters are on cache lines of their own: calloc's 16-byte
     * alignment is not the header's (UBSan says so). */
    struct rg_header *h = aligned_alloc(_Alignof(struct rg_header), sizeof *h);
    if (!h)
        abort();
    memset(h, 0, sizeof *h);
    snprintf(h->journal_dir, sizeof h->journal_dir, "%s", dir);
    h->created_ns = created_ns;
    h->creator_pid = pid;
    return h;
}

static struct rg_jpaths paths;
static char obj_buf[RG_JPATH], idx_buf[RG_JPATH];

TEST(paths_name_objects_and_the_sessions_index)
{
    struct rg_header *h = header("/s/readguard/journal", 1795468256807933359, 12987);
    const char *o, *i;
    rg_jpaths_reset(&paths);
    rg_jpaths_get(&paths, h, obj_buf, idx_buf, &o, &i);
    CHECK_EQ_STR(o, "/s/readguard/journal/objects");
    CHECK_EQ_STR(i, "/s/readguard/journal/sessions/1795468256807933359-12987.jsonl");
    free(h);
}

TEST(second_ask_is_answered_from_the_cache)
{
    struct rg_header *h = header("/j", 5, 7);
    const char *o, *i, *o2, *i2;
    rg_jpaths_reset(&paths);
    rg_jpaths_get(&paths, h, obj_buf, idx_buf, &o, &i);
    CHECK(o == paths.objects && i == paths.index);
    h->journal_dir[1] = 'x'; /* a header never changes: the cache is not asked to see it */
    rg_jpaths_get(&paths, h, obj_buf, idx_buf, &o2, &i2);
    CHECK(o2 == paths.objects && i2 == paths.index);
    CHECK_EQ_STR(i2, "/j/sessions/0000000000000000005-7.jsonl");
    free(h);
}

TEST(paths_being_built_elsewhere_are_built_into_the_callers_buffers)
{
    struct rg_header *h = header("/j", 5, 7);
    const char *o, *i;
    rg_jpaths_reset(&paths);
    atomic_store(&paths.state, 1); /* another thread, or a parent forked mid-way */
    rg_jpaths_get(&paths, h, obj_buf, idx_buf, &o, &i);
    CHECK(o == obj_buf && i == idx_buf);
    CHECK_EQ_STR(o, "/j/objects");
    CHECK_EQ_STR(i, "/j/sessions/0000000000000000005-7.jsonl");
    CHECK_EQ_INT(atomic_load(&paths.state), 1);
    free(h);
}

TEST(reset_builds_them_again_for_another_table)
{
    struct rg_header *a = header("/a", 1, 2), *b = header("/b", 3, 4);
    const char *o, *i;
    rg_jpaths_reset(&paths);
    rg_jpaths_get(&paths, a, obj_buf, idx_buf, &o, &i);
    rg_jpaths_reset(&paths);
    rg_jpaths_get(&paths, b, obj_buf, idx_buf, &o, &i);
    CHECK_EQ_STR(o, "/b/objects");
    CHECK_EQ_STR(i, "/b/sessions/0000000000000000003-4.jsonl");
    free(a), free(b);
}

int main(void)
{
    RUN(paths_name_objects_and_the_sessions_index);
    RUN(second_ask_is_answered_from_the_cache);
    RUN(paths_being_built_elsewhere_are_built_into_the_callers_buffers);
    RUN(reset_builds_them_again_for_another_table);
    return check_done();
}
