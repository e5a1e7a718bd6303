/* Unit tests for the policy settings a session table carries: knobs, read
 * TTL and ignore rules are stored, validated, and the TTL renews reads. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "check.h"
#include "core/ignore.h"
#include "core/settings.h"
#include "core/table.h"
#define UID 4242u
#define CAP 16u

static const char *const roots[] = {"/r"};
static char rules_buf[256];

static struct rg_settings settings(void)
{
    struct rg_ignore_list l = {rules_buf, sizeof rules_buf, 0, 0};
    rg_ignore_add(&l, RG_IGN_ABSOLUTE, "/tmp");
    rg_ignore_add(&l, RG_IGN_EVERY_ROOT, "*.o");
    return (struct rg_settings){.mode = RG_MODE_ENFORCE,
                                .capacity = CAP,
                                .roots = roots,
                                .nroots = 1,
                                .flags = RG_POLICY_GUARD_UNLINK,
                                .read_ttl_ns = 5000000000,
                                .scan_files = 12,
                                .scan_window_ns = 2000000000,
                                .ignores = l.buf,
                                .ignores_len = l.len,
                                .nignores = l.count};
}

static void *new_map(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        exit(2);
    return p;
}

static size_t size_ = 0;

static struct rg_header *formatted(const struct rg_settings *s, int *r)
{
    size_ = rg_table_file_size(CAP);
    struct rg_header *h = new_map(size_);
    *r = rg_table_format(h, size_, s, UID, 1, 1);
    return h;
}

TEST(format_stores_knobs_ttl_and_ignore_rules)
{
    struct rg_settings s = settings();
    int r;
    struct rg_header *h = formatted(&s, &r);
    CHECK_EQ_INT(r, 0);
    CHECK(rg_table_validate(h, size_, UID) == NULL);
    CHECK_EQ_INT(h->flags, RG_POLICY_GUARD_UNLINK);
    CHECK_EQ_INT(h->read_ttl_ns, 5000000000);
    CHECK_EQ_INT(h->scan_files, 12);
    CHECK_EQ_INT(h->scan_window_ns, 2000000000);
    CHECK_EQ_INT(h->nignores, 2);
    CHECK_EQ_INT(h->ignores_len, s.ignores_len);
    CHECK(rg_ignored(h->ignores, h->ignores_len, "/r", 0, "/r/x.o"));
    CHECK(!rg_ignored(h->ignores, h->ignores_len, "/r", 0, "/r/x.c"));
    munmap(h, size_);
}

TEST(format_rejects_unknown_knobs)
{
    struct rg_settings s = settings();
    s.flags |= 0x100;
    int r;
    struct rg_header *h = formatted(&s, &r);
    CHECK_EQ_INT(r, -EINVAL);
    munmap(h, size_);
}

TEST(format_rejects_negative_ttl)
{
    struct rg_settings s = settings();
    s.read_ttl_ns = -1;
    int r;
    struct rg_header *h = formatted(&s, &r);
    CHECK_EQ_INT(r, -EINVAL);
    munmap(h, size_);
}

TEST(format_rejects_ignore_rules_too_long)
{
    struct rg_settings s = settings();
    s.ignores_len = RG_IGNORES_MAX + 1;
    int r;
    struct rg_header *h = formatted(&s, &r);
    CHECK_EQ_INT(r, -ENAMETOOLONG);
    munmap(h, size_);
}

static int format_scan(uint32_t files, int64_t window_ns)
{
    struct rg_settings s = settings();
    s.scan_files = files;
    s.scan_window_ns = window_ns;
    int r;
    struct rg_header *h = formatted(&s, &r);
    munmap(h, size_);
    return r;
}

TEST(format_accepts_scan_detection_off) { CHECK_EQ_INT(format_scan(0, 0), 0); }

TEST(format_rejects_scan_files_beyond_the_ring)
{
    CHECK_EQ_INT(format_scan(RG_SCAN_FILES_MAX, 1), 0);
    CHECK_EQ_INT(format_scan(RG_SCAN_FILES_MAX + 1, 1), -EINVAL);
}

TEST(format_rejects_scan_files_without_a_window)
{
    CHECK_EQ_INT(format_scan(8, 0), -EINVAL);
    CHECK_EQ_INT(format_scan(8, -1), -EINVAL);
    CHECK_EQ_INT(format_scan(8, RG_SCAN_WINDOW_MAX_NS + 1), -EINVAL);
}

static void check_corrupt(void (*spoil)(struct rg_header *))
{
    struct rg_settings s = settings();
    int r;
    struct rg_header *h = formatted(&s, &r);
    spoil(h);
    const char *why = rg_table_validate(h, size_, UID);
    CHECK(why && strstr(why, "settings are corrupt"));
    munmap(h, size_);
}

static void unknown_flag(struct rg_header *h) { h->flags |= 0x80; }
static void negative_ttl(struct rg_header *h) { h->read_ttl_ns = -5; }
static void long_ignores(struct rg_header *h) { h->ignores_len = RG_IGNORES_MAX + 1; }
static void unterminated_ignores(struct rg_header *h) { h->ignores[h->ignores_len - 1] = 'x'; }

static void huge_scan_files(struct rg_header *h) { h->scan_files = 1000; }
static void scan_without_window(struct rg_header *h) { h->scan_window_ns = 0; }

TEST(validate_rejects_unknown_knobs) { check_corrupt(unknown_flag); }
TEST(validate_rejects_scan_files_beyond_the_ring) { check_corrupt(huge_scan_files); }
TEST(validate_rejects_scan_files_without_a_window) { check_corrupt(scan_without_window); }
TEST(validate_rejects_negative_ttl) { check_corrupt(negative_ttl); }
TEST(validate_rejects_ignores_longer_than_their_area) { check_corrupt(long_ignores); }
TEST(validate_rejects_unterminated_ignores) { check_corrupt(unterminated_ignores); }

static int64_t reread_after(int64_t ttl, int64_t later)
{
    struct rg_settings s = settings();
    s.read_ttl_ns = ttl;
    int r;
    struct rg_header *h = formatted(&s, &r);
    struct rg_table t;
    rg_table_bind(&t, h, size_);
    struct rg_entry *e = rg_table_find_or_add(&t, 1, 2);
    struct rg_stamp st = {.mtime_ns = 10, .ctime_ns = 20, .size = 3};
    rg_entry_stamp(&t, e, &st, false, 1000);
    rg_entry_stamp(&t, e, &st, false, 1000 + later);
    int64_t read_ns = rg_entry_load(&t, e).read_ns;
    munmap(h, size_);
    return read_ns;
}

TEST(reread_renews_the_read_time_when_reads_expire)
{
    CHECK_EQ_INT(reread_after(5000000000, RG_TICK_NS + 1), 1000 + RG_TICK_NS + 1);
}

TEST(reread_within_a_tick_leaves_the_read_time)
{
    CHECK_EQ_INT(reread_after(5000000000, RG_TICK_NS), 1000);
}

TEST(reread_leaves_the_read_time_when_reads_never_expire)
{
    CHECK_EQ_INT(reread_after(0, 10 * RG_TICK_NS), 1000);
}

TEST(table_name_is_the_prefix_and_sixteen_hex_digits)
{
    CHECK(rg_table_name("readguard-0-0123456789abcdef", "readguard-0-"));
    CHECK(!rg_table_name("readguard-0-0123456789abcdef.log", "readguard-0-"));
    CHECK(!rg_table_name("readguard-0-0123456789abcdef.new-0a1b2c", "readguard-0-"));
    CHECK(!rg_table_name("readguard-0-0123456789ABCDEF", "readguard-0-"));
    CHECK(!rg_table_name("readguard-1000-0123456789abcdef", "readguard-0-"));
    CHECK(!rg_table_name("readguard-0-0123", "readguard-0-"));
}

TEST(hook_table_name_is_the_prefix_and_a_session_id)
{
    CHECK(rg_hook_table_name("readguard-claude-abc-123"));
    CHECK(rg_hook_table_name("readguard-claude-4f1c_9A"));
}

TEST(hook_table_name_is_not_one_being_made_nor_an_empty_id)
{
    CHECK(!rg_hook_table_name("readguard-claude-abc.new-0a1b2c3d"));
    CHECK(!rg_hook_table_name("readguard-claude-"));
    CHECK(!rg_hook_table_name("readguard-claude-abc.log"));
    CHECK(!rg_hook_table_name("readguard-1000-00000000000000ff"));
    CHECK(!rg_hook_table_name("xreadguard-claude-abc"));
}

int main(void)
{
    RUN(format_stores_knobs_ttl_and_ignore_rules);
    RUN(hook_table_name_is_the_prefix_and_a_session_id);
    RUN(hook_table_name_is_not_one_being_made_nor_an_empty_id);
    RUN(format_rejects_unknown_knobs);
    RUN(format_rejects_negative_ttl);
    RUN(format_rejects_ignore_rules_too_long);
    RUN(validate_rejects_unknown_knobs);
    RUN(format_accepts_scan_detection_off);
    RUN(format_rejects_scan_files_beyond_the_ring);
    RUN(format_rejects_scan_files_without_a_window);
    RUN(validate_rejects_scan_files_beyond_the_ring);
    RUN(validate_rejects_scan_files_without_a_window);
    RUN(validate_rejects_negative_ttl);
    RUN(validate_rejects_ignores_longer_than_their_area);
    RUN(validate_rejects_unterminated_ignores);
    RUN(reread_renews_the_read_time_when_reads_expire);
    RUN(reread_within_a_tick_leaves_the_read_time);
    RUN(reread_leaves_the_read_time_when_reads_never_expire);
    RUN(table_name_is_the_prefix_and_sixteen_hex_digits);
    return check_done();
}
