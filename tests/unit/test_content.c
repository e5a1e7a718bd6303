/* Unit tests for core/content.c and guard/readhash.c: the hash, when a read
 * takes one, and hashing an open file in chunks. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

/* Computed by an independent model of the hash (Python integers, written
 * from the description in core/content.h), so a change to what stored
 * hashes mean cannot pass unnoticed: that needs a table format bump. */
TEST(hash_matches_known_answers)
{
    unsigned char seq[300];
    for (size_t i = 0; i < sizeof seq; i++)
        seq[i] = (unsigned char)i;
    static const struct {
        const char *text; /* NULL: the first len bytes of seq */
        size_t len;
        int64_t size;
        uint32_t want;
    } v[] = {
        {"", 0, 0, 0xd0b04d30u},       {"a", 1, 1, 0x28814a3bu},      {"abc", 3, 3, 0x1158400au},
        {"abc", 3, 1000, 0xf6a46c88u}, {NULL, 15, 15, 0x2916e5f9u},   {NULL, 16, 16, 0x290ca3f8u},
        {NULL, 17, 17, 0x41c15910u},   {NULL, 63, 63, 0xd7007849u},   {NULL, 64, 64, 0x3f4d61d0u},
        {NULL, 65, 65, 0x0d6a92d7u},   {NULL, 127, 127, 0x11238520u}, {NULL, 128, 128, 0xc7c140acu},
        {NULL, 200, 200, 0x959f4419u}, {NULL, 257, 257, 0xecc81844u},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        CHECK_EQ_INT(rg_hash_bytes(v[i].text ? (const void *)v[i].text : seq, v[i].len, v[i].size),
                     v[i].want);
}

TEST(product_from_halves_equals_the_wide_product)
{
    static const uint64_t edge[] = {
        0, 1, 2, 0xffffffffull, 0x100000000ull, UINT64_MAX, UINT64_MAX - 1, 0x8000000000000000ull};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        for (size_t j = 0; j < sizeof edge / sizeof *edge; j++)
            CHECK_EQ_INT(rg_hash_fold_halves(edge[i], edge[j]), rg_hash_fold(edge[i], edge[j]));
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 10000; i++) {
        uint64_t a = x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t b = x = x * 6364136223846793005ull + 1442695040888963407ull;
        CHECK_EQ_INT(rg_hash_fold_halves(a, b), rg_hash_fold(a, b));
    }
}

/* Every length through four blocks and a tail: each takes its own path
 * through the lanes and the padding of the last piece. */
TEST(every_length_to_257_hashes_nonzero_and_differently)
{
    fill();
    static uint32_t seen[258], zeros[258];
    static const unsigned char z[258];
    for (size_t n = 0; n <= 257; n++) {
        seen[n] = rg_hash_bytes(data, n, (int64_t)n);
        zeros[n] = rg_hash_bytes(z, n, 300); /* one size: only the length tells them apart */
        CHECK(seen[n] != 0 && zeros[n] != 0);
        for (size_t m = 0; m < n; m++) {
            CHECK(seen[m] != seen[n]);
            CHECK(zeros[m] != zeros[n]);
        }
    }
}

TEST(hash_does_not_depend_on_the_alignment)
{
    fill();
    static unsigned char moved[300 + 16];
    for (size_t n = 0; n <= 257; n += 1) {
        uint32_t want = rg_hash_bytes(data, n, (int64_t)n);
        for (size_t off = 1; off < 16; off++) {
            memcpy(moved + off, data, n);
            CHECK_EQ_INT(rg_hash_bytes(moved + off, n, (int64_t)n), want);
        }
    }
}

/* Every bit of every length to 257: a one-bit change is the likeliest
 * accident, and it lands in every lane, word half and tail position. */
TEST(flipping_any_one_bit_changes_the_hash)
{
    fill();
    for (size_t n = 1; n <= 257; n++) {
        uint32_t h = rg_hash_bytes(data, n, (int64_t)n);
        for (size_t bit = 0; bit < 8 * n; bit++) {
            data[bit / 8] ^= (unsigned char)(1u << bit % 8);
            CHECK(rg_hash_bytes(data, n, (int64_t)n) != h);
            data[bit / 8] ^= (unsigned char)(1u << bit % 8);
        }
        CHECK_EQ_INT(rg_hash_bytes(data, n, (int64_t)n), h);
    }
}

TEST(hash_depends_on_the_size)
{
    fill();
    CHECK(rg_hash_bytes(data, 100, 100) != rg_hash_bytes(data, 100, 101));
    CHECK(rg_hash_bytes(data, 0, 0) != rg_hash_bytes(data, 0, 1));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Pairs of equal hashes among n, sorted in place. */
static size_t collisions(uint32_t *h, size_t n)
{
    qsort(h, n, sizeof *h, cmp_u32);
    size_t c = 0;
    for (size_t i = 1; i < n; i++)
        c += h[i] == h[i - 1];
    return c;
}

static uint32_t sparse_hash(size_t len, const size_t *bits, size_t nbits)
{
    unsigned char buf[64] = {0};
    for (size_t i = 0; i < nbits; i++)
        buf[bits[i] / 8] |= (unsigned char)(1u << bits[i] % 8);
    return rg_hash_bytes(buf, len, (int64_t)len);
}

/* Files that differ from each other in a few bits (mostly zeros, a flag or
 * two) collide no more often than chance says for 32 bits: n^2 / 2^33 pairs.
 * A sum and a xor of the state that agree where no carry happens, or a
 * word chain without the product's high half, fail this by orders of
 * magnitude (the word chain this hash replaced: 87 and 1,357). */
TEST(sparse_inputs_collide_no_more_than_chance)
{
    static uint32_t h[341376];
    size_t n = 0, b[3];
    for (b[0] = 0; b[0] < 512; b[0]++)
        for (b[1] = b[0] + 1; b[1] < 512; b[1]++)
            h[n++] = sparse_hash(64, b, 2);
    CHECK(collisions(h, n) <= 10); /* 130,816 keys: 2.0 expected */
    n = 0;
    for (b[0] = 0; b[0] < 128; b[0]++)
        for (b[1] = b[0] + 1; b[1] < 128; b[1]++)
            for (b[2] = b[1] + 1; b[2] < 128; b[2]++)
                h[n++] = sparse_hash(16, b, 3);
    CHECK_EQ_INT(n, sizeof h / sizeof *h);
    CHECK(collisions(h, n) <= 40); /* 13.6 expected */
}

/* Moved words: within a lane's 16 bytes, between lanes, between blocks. */
TEST(swapped_words_hash_differently)
{
    unsigned char a[16] = "AAAAAAAABBBBBBBB", b[16] = "BBBBBBBBAAAAAAAA";
    CHECK(rg_hash_bytes(a, 16, 16) != rg_hash_bytes(b, 16, 16));
    fill();
    static unsigned char moved[128];
    size_t pieces[][2] = {{0, 16}, {16, 48}, {0, 64}, {8, 72}};
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        memcpy(moved, data, sizeof moved);
        memcpy(moved + pieces[i][0], data + pieces[i][1], 8);
        memcpy(moved + pieces[i][1], data + pieces[i][0], 8);
        CHECK(rg_hash_bytes(moved, sizeof moved, 128) != rg_hash_bytes(data, sizeof moved, 128));
    }
}

/* All-zero blocks still move every lane: a run of zeros is not the same as
 * a shorter run. */
TEST(zero_blocks_count)
{
    static const unsigned char z[4 * RG_HASH_BLOCK];
    CHECK(rg_hash_bytes(z, RG_HASH_BLOCK, 1) != rg_hash_bytes(z, 2 * RG_HASH_BLOCK, 1));
    CHECK(rg_hash_bytes(z, 2 * RG_HASH_BLOCK, 1) != rg_hash_bytes(z, 4 * RG_HASH_BLOCK, 1));
}

TEST(hash_in_blocks_equals_hash_in_one_call)
{
    fill();
    size_t len = 5 * RG_HASH_BLOCK + 37;
    uint32_t want = rg_hash_bytes(data, len, 12345);
    for (size_t split = 0; split <= len; split += RG_HASH_BLOCK) {
        struct rg_hasher h;
        rg_hash_start(&h, 12345);
        rg_hash_blocks(&h, data, split);
        CHECK_EQ_INT(rg_hash_finish(&h, data + split, len - split), want);
    }
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
    RUN(hash_matches_known_answers);
    RUN(product_from_halves_equals_the_wide_product);
    RUN(every_length_to_257_hashes_nonzero_and_differently);
    RUN(hash_does_not_depend_on_the_alignment);
    RUN(flipping_any_one_bit_changes_the_hash);
    RUN(hash_depends_on_the_size);
    RUN(sparse_inputs_collide_no_more_than_chance);
    RUN(swapped_words_hash_differently);
    RUN(zero_blocks_count);
    RUN(hash_in_blocks_equals_hash_in_one_call);
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
