/*
 * rgmemstream: fclose of a memory stream in the middle of a write, for the
 * readguard end-to-end tests.
 *
 *   rgmemstream PATH   opens PATH for appending, writes "a", closes an
 *                      open_memstream stream, writes "b", closes PATH
 *
 * glibc leaves the descriptor field of a memory stream's FILE unset: it
 * holds whatever the heap held there. The stream is made on memory that
 * held PATH's descriptor number in that place, as a program that has run
 * a while may well have left it, so a hook that takes that field for the
 * stream's descriptor takes PATH's.
 *
 * Exit status: 0 done, 1 a call failed, 2 usage, 3 the memory could not be
 * laid out so (the test proves nothing then).
 */
#include <fcntl.h>
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* An open_memstream stream whose FILE reuses a freed block of its own size
 * that held fd where a file stream keeps its descriptor. */
static FILE *memstream_over(int fd, char **buf, size_t *len)
{
    FILE *probe = open_memstream(buf, len);
    if (!probe)
        return NULL;
    size_t size = malloc_usable_size(probe);
    fclose(probe);
    free(*buf);
    char *block = malloc(size);
    if (!block)
        return NULL;
    /* volatile: a store just before free() is otherwise left out. */
    *(volatile int *)(block + offsetof(FILE, _fileno)) = fd;
    free(block);
    return open_memstream(buf, len);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rgmemstream PATH\n");
        return 2;
    }
    int fd = open(argv[1], O_WRONLY | O_APPEND);
    if (fd < 0 || write(fd, "a\n", 2) != 2) {
        perror(argv[1]);
        return 1;
    }
    char *buf;
    size_t len;
    FILE *ms = memstream_over(fd, &buf, &len);
    if (!ms) {
        perror("open_memstream");
        return 1;
    }
    if (ms->_fileno != fd) {
        fprintf(stderr, "rgmemstream: the stream did not reuse the block\n");
        return 3;
    }
    fputs("in memory", ms);
    if (fclose(ms) != 0) {
        perror("fclose");
        return 1;
    }
    free(buf);
    if (write(fd, "b\n", 2) != 2 || close(fd) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
