/* rguffd FILE OTHER: opens FILE by a path in a page that is not there yet
 * (userfaultfd), so that whoever copies the path from this process (the
 * supervisor) waits until the page is provided; while it waits, opens
 * OTHER, and only then provides the page. Prints "other ok" and "file ok"
 * as the opens succeed. A supervisor that lets one stuck call hold up the
 * rest never answers OTHER: the run hangs (the test's timeout ends it).
 * Exits 77 where userfaultfd cannot trap a copy made by the kernel (no
 * privilege for it). */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *page;
static long page_size;

static void *open_file(void *arg)
{
    (void)arg;
    int fd = open(page, O_RDONLY);
    printf(fd >= 0 ? "file ok\n" : "file failed: %s\n", strerror(errno));
    fflush(stdout);
    return NULL;
}

static int uffd_for(char *addr, size_t len)
{
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
    struct uffdio_api api = {.api = UFFD_API};
    struct uffdio_register reg = {.range = {(unsigned long)addr, len},
                                  .mode = UFFDIO_REGISTER_MODE_MISSING};
    if (fd < 0 || ioctl(fd, UFFDIO_API, &api) != 0 || ioctl(fd, UFFDIO_REGISTER, &reg) != 0)
        return -1;
    return fd;
}

int main(int argc, char **argv)
{
    if (argc != 3 || strlen(argv[1]) >= 4096) {
        fprintf(stderr, "usage: rguffd FILE OTHER\n");
        return 2;
    }
    page_size = sysconf(_SC_PAGESIZE);
    page =
        mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int uffd = page == MAP_FAILED ? -1 : uffd_for(page, (size_t)page_size);
    if (uffd < 0) {
        fprintf(stderr, "rguffd: userfaultfd: %s\n", strerror(errno));
        return 77;
    }
    pthread_t th;
    pthread_create(&th, NULL, open_file, NULL);
    struct pollfd p = {.fd = uffd, .events = POLLIN};
    struct uffd_msg msg;
    if (poll(&p, 1, 10000) != 1 || read(uffd, &msg, sizeof msg) != sizeof msg ||
        msg.event != UFFD_EVENT_PAGEFAULT) {
        fprintf(stderr, "rguffd: no fault on the path's page\n");
        return 1;
    }
    /* The path's reader is stuck on the fault: now another call. */
    int fd = open(argv[2], O_RDONLY);
    printf(fd >= 0 ? "other ok\n" : "other failed: %s\n", strerror(errno));
    fflush(stdout);
    char *src = calloc(1, (size_t)page_size);
    strcpy(src, argv[1]);
    struct uffdio_copy copy = {
        .dst = (unsigned long)page, .src = (unsigned long)src, .len = (unsigned long)page_size};
    if (ioctl(uffd, UFFDIO_COPY, &copy) != 0) {
        fprintf(stderr, "rguffd: UFFDIO_COPY: %s\n", strerror(errno));
        return 1;
    }
    pthread_join(th, NULL);
    return 0;
}
