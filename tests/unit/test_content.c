/* Unit tests for core/content.c and guard/readhash.c: the hash, when a read
 * takes one, and hashing an open file in chunks. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/content.h"
#include "core/table.h"
#include "guard/readhash.h"
static unsigned char data[3 * RG_HASH_MAX];

static void fill(void)
{
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 2654435761u >> 13);
}

/* A temporary file holding the first len bytes of data; its descriptor. */
static int temp_file(size_t len)
{
    char path[] = "/tmp/rg-test-content-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    unlink(path);
    if (write(fd, data, len) != (ssize_t)len)
        abort();
    return fd;
}

TEST(hash_is_never_zero_and_depends_on_every_byte)
{
    fill();
    uint32_t h = rg_hash_bytes(data, 1000, 1000);
    CHECK(h != 0);
    CHECK(rg_hash_bytes("", 0, 0) != 0);
    for (size_t i = 0; i < 1000; i += 37) {
        data[i] ^= 1;
        CHECK(rg_hash_bytes(data, 1000, 1000) != h);
        data[i] ^= 1;
    }
    CHECK_EQ_INT(rg_hash_bytes(data, 1000, 1000), h);
}

TEST(hash_depends_on_the_size_and_on_the_tail_length)
{
    fill();
    CHECK(rg_hash_bytes(data, 100, 100) != rg_hash_bytes(data, 100, 101));
    /* Trailing zero bytes are not the same as no bytes. */
    unsigned char z[16] = {0};
    CHECK(rg_hash_bytes(z, 3, 3) != rg_hash_bytes(z, 4, 3));
    CHECK(rg_hash_bytes(z, 8, 8) != rg_hash_bytes(z, 16, 8));
}

TEST(swapped_words_hash_differently)
{
    unsigned char a[16] = "AAAAAAAABBBBBBBB", b[16] = "BBBBBBBBAAAAAAAA";
    CHECK(rg_hash_bytes(a, 16, 16) != rg_hash_bytes(b, 16, 16));
}

TEST(file_hash_equals_buffer_hash_at_every_chunk_boundary)
{
    fill();
    size_t lens[] = {0, 1, 7, 8, 9, 8191, 8192, 8193, 20000, RG_HASH_MAX - 1, RG_HASH_MAX};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        int fd = temp_file(lens[i]);
        CHECK_EQ_INT(rg_content_hash(fd, (int64_t)lens[i]),
                     rg_hash_bytes(data, lens[i], (int64_t)lens[i]));
        close(fd);
    }
}

TEST(large_file_hashes_its_first_bytes_and_size)
{
    fill();
    size_t len = sizeof data;
    int fd = temp_file(len);
    CHECK_EQ_INT(rg_content_hash(fd, (int64_t)len), rg_hash_bytes(data, RG_HASH_MAX, (int64_t)len));
    close(fd);
}

TEST(file_hash_leaves_the_offset_alone)
{
    fill();
    int fd = temp_file(5000);
    lseek(fd, 123, SEEK_SET);
    rg_content_hash(fd, 5000);
    CHECK_EQ_INT(lseek(fd, 0, SEEK_CUR), 123);
    close(fd);
}

TEST(file_shorter_than_its_size_or_unreadable_gives_zero)
{
    fill();
    int fd = temp_file(100);
    CHECK_EQ_INT(rg_content_hash(fd, 200), 0);
    close(fd);
    CHECK_EQ_INT(rg_content_hash(fd, 100), 0); /* closed */
    int w = open("/dev/null", O_WRONLY);
    CHECK_EQ_INT(rg_content_hash(w, 10), 0);
    close(w);
}

#define MS 1000000LL
#define T0 1700000000000000000LL

TEST(racy_means_modified_less_than_a_tick_before_the_read)
{
    CHECK(rg_stamp_racy(T0, T0));
    CHECK(rg_stamp_racy(T0, T0 + RG_TICK_NS - 1));
    CHECK(!rg_stamp_racy(T0, T0 + RG_TICK_NS));
    CHECK(rg_stamp_racy(T0 + 5 * MS, T0)); /* an mtime ahead of our clock */
}

TEST(small_files_always_want_a_hash_large_ones_only_when_racy)
{
    CHECK(rg_hash_wanted(RG_HASH_MAX, T0, T0 + 1000 * MS));
    CHECK(!rg_hash_wanted(RG_HASH_MAX + 1, T0, T0 + 1000 * MS));
    CHECK(rg_hash_wanted(RG_HASH_MAX + 1, T0, T0 + 1 * MS));
}

TEST(read_hash_is_skipped_for_a_known_calm_stamp)
{
    fill();
    int fd = temp_file(100);
    uint32_t h = rg_hash_bytes(data, 100, 100);
    struct rg_stamp st = {.mtime_ns = T0, .ctime_ns = T0, .size = 100};
    struct rg_record none = {0};
    CHECK_EQ_INT(rg_read_hash(&none, &st, fd, T0 + 1000 * MS), h);
    struct rg_record known = {.found = true,
                              .mtime_ns = T0,
                              .ctime_ns = T0,
                              .size = 100,
                              .read_ns = T0 + 1000 * MS,
                              .hash = h};
    CHECK_EQ_INT(rg_read_hash(&known, &st, fd, T0 + 2000 * MS), 0);
    /* Hashed racily: the bytes may have changed under the same stamp since. */
    known.read_ns = T0 + 1 * MS;
    CHECK_EQ_INT(rg_read_hash(&known, &st, fd, T0 + 2000 * MS), h);
    /* Known but never hashed (the session's own write stamped it). */
    known.read_ns = T0 + 1000 * MS;
    known.hash = 0;
    CHECK_EQ_INT(rg_read_hash(&known, &st, fd, T0 + 2000 * MS), h);
    known.hash = h;
    /* Another ctime: another change, whatever mtime says. */
    known.ctime_ns = T0 - 1;
    CHECK_EQ_INT(rg_read_hash(&known, &st, fd, T0 + 1000 * MS), h);
    close(fd);
}

TEST(record_wants_a_hash_when_it_has_none_or_took_it_racily)
{
    struct rg_record r = {.found = true, .mtime_ns = T0, .size = 100, .read_ns = T0 + 1000 * MS};
    CHECK(rg_record_wants_hash(&r));
    r.hash = 5;
    CHECK(!rg_record_wants_hash(&r));
    r.read_ns = T0 + 1 * MS;
    CHECK(rg_record_wants_hash(&r));
    r.hash = 0;
    r.size = RG_HASH_MAX + 1;
    r.read_ns = T0 + 1000 * MS;
    CHECK(!rg_record_wants_hash(&r));
}

TEST(read_hash_is_skipped_for_a_large_calm_file)
{
    struct rg_stamp st = {.mtime_ns = T0, .ctime_ns = T0, .size = RG_HASH_MAX + 1};
    struct rg_record none = {0};
    CHECK_EQ_INT(rg_read_hash(&none, &st, -1, T0 + 1000 * MS), 0);
}

int main(void)
{
    RUN(hash_is_never_zero_and_depends_on_every_byte);
    RUN(hash_depends_on_the_size_and_on_the_tail_length);
    RUN(swapped_words_hash_differently);
    RUN(file_hash_equals_buffer_hash_at_every_chunk_boundary);
    RUN(large_file_hashes_its_first_bytes_and_size);
    RUN(file_hash_leaves_the_offset_alone);
    RUN(file_shorter_than_its_size_or_unreadable_gives_zero);
    RUN(racy_means_modified_less_than_a_tick_before_the_read);
    RUN(small_files_always_want_a_hash_large_ones_only_when_racy);
    RUN(read_hash_is_skipped_for_a_known_calm_stamp);
    RUN(record_wants_a_hash_when_it_has_none_or_took_it_racily);
    RUN(read_hash_is_skipped_for_a_large_calm_file);
    return check_done();
}
