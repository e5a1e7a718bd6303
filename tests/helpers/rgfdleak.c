/* rgfdleak DIR N [child]: reads, allowed and refused writes, renames and
 * removals N times, then counts its descriptors above 2, execs itself
 * and lists them again; prints both lists, and refused=R on stderr */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void list_fds(const char *who)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    printf("%s fds:", who);
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
            printf(" %s", e->d_name);
    printf("\n");
    closedir(d);
}
int main(int argc, char **argv)
{
    char b[64], arg[16];
    int n, refused = 0, i, fd;
    if (argc < 3)
        return 3;
    n = atoi(argv[2]);
    if (argc > 3) {
        list_fds("child");
        return 0;
    }
    if (chdir(argv[1]))
        return 3;
    for (i = 0; i < n; i++) {
        fd = open("k", O_RDONLY); /* a read */
        if (fd < 0 || read(fd, b, sizeof b) < 0)
            return 4;
        close(fd);
        fd = open("k", O_WRONLY | O_TRUNC); /* allowed, journaled once */
        if (fd < 0 || write(fd, "k", 1) != 1)
            return 5;
        close(fd);
        fd = open("u", O_WRONLY | O_TRUNC); /* refused: never read */
        if (fd >= 0)
            return 6;
        if (errno == EACCES)
            refused++;
        fd = open("tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write(fd, "t", 1) != 1)
            return 7;
        close(fd);
        if (rename("tmp", "k"))
            return 8; /* atomic save over k */
        fd = open("gone", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        close(fd);
        unlink("gone");
        if (truncate("k", 0))
            return 9;
    }
    list_fds("parent");
    fprintf(stderr, "refused=%d\n", refused);
    fflush(stdout);
    snprintf(arg, sizeof arg, "%d", n);
    execl("/proc/self/exe", argv[0], argv[1], arg, "child", (char *)0);
    return 10;
}
