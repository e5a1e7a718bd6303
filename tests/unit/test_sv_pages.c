/* Unit tests for supervise/pages.c: the supervisor's mapping of the table
 * survives its file being cut short, keeping a well-formed header. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "supervise/supervise.h"
#define SIZE (RG_HEADER_SIZE + 4 * 4096)

static struct rg_table mapped(int *fd)
{
    struct rg_table t = {0};
    *fd = memfd_create("rg-pages", MFD_CLOEXEC);
    CHECK(*fd >= 0);
    CHECK(ftruncate(*fd, SIZE) == 0);
    void *map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    CHECK(map != MAP_FAILED);
    t.hdr = map;
    t.map_size = SIZE;
    memcpy(t.hdr->magic, "RGTEST!", 8);
    t.hdr->capacity = 77;
    ((char *)map)[RG_HEADER_SIZE] = 'e'; /* an entry page, written */
    return t;
}

TEST(a_truncated_table_keeps_its_header_and_reads_zeros_past_it)
{
    int fd;
    struct rg_table t = mapped(&fd);
    CHECK_EQ_INT(rg_sv_pages_keep(&t), 0);
    CHECK(ftruncate(fd, 0) == 0);
    /* Without the guard, each of these would raise SIGBUS. */
    CHECK_EQ_STR(t.hdr->magic, "RGTEST!");
    CHECK_EQ_INT(t.hdr->capacity, 77);
    char *entry = (char *)t.hdr + RG_HEADER_SIZE;
    CHECK_EQ_INT(entry[0], 0);
    entry[4096] = 'w'; /* a page never touched before */
    CHECK_EQ_INT(entry[4096], 'w');
    munmap(t.hdr, SIZE);
    close(fd);
}

TEST(the_file_grown_back_is_no_longer_what_the_supervisor_sees)
{
    int fd;
    struct rg_table t = mapped(&fd);
    CHECK_EQ_INT(rg_sv_pages_keep(&t), 0);
    CHECK(ftruncate(fd, 0) == 0);
    char *entry = (char *)t.hdr + RG_HEADER_SIZE;
    entry[1] = 'p'; /* now the supervisor's own page */
    CHECK(ftruncate(fd, SIZE) == 0);
    char b = 0;
    CHECK(pread(fd, &b, 1, RG_HEADER_SIZE + 1) == 1);
    CHECK_EQ_INT(b, 0);
    CHECK_EQ_INT(entry[1], 'p');
    munmap(t.hdr, SIZE);
    close(fd);
}

int main(void)
{
    RUN(a_truncated_table_keeps_its_header_and_reads_zeros_past_it);
    RUN(the_file_grown_back_is_no_longer_what_the_supervisor_sees);
    return check_done();
}
