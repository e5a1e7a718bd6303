/* rgm: a file tool the tests build with musl-gcc, to run musl programs in a
 * session (see t3160).
 *   rgm read F | write F TEXT | open-write F TEXT | rename FROM TO
 *   rgm ... exec PROG [ARG]...        (execv: the environment as it is)
 *   rgm ... scrub-exec PROG [ARG]...  (execve with an empty environment)
 * Operations run in order; each prints "ok" or "err ENAME"; the first failure
 * ends the program with status 1. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *ename(int e)
{
    return e == EACCES ? "EACCES" : e == ENOENT ? "ENOENT" : strerror(e);
}

static int op(char **a, int *used)
{
    char buf[4096];
    *used = 2;
    if (strcmp(a[0], "read") == 0) {
        FILE *f = fopen(a[1], "r");
        if (!f)
            return -1;
        while (fread(buf, 1, sizeof buf, f) > 0)
            ;
        return fclose(f);
    }
    *used = 3;
    if (strcmp(a[0], "write") == 0) {
        FILE *f = fopen(a[1], "w");
        if (!f)
            return -1;
        fprintf(f, "%s\n", a[2]);
        return fclose(f);
    }
    if (strcmp(a[0], "open-write") == 0) {
        int fd = open(a[1], O_WRONLY | O_TRUNC | O_CREAT, 0644);
        if (fd < 0)
            return -1;
        ssize_t n = write(fd, a[2], strlen(a[2]));
        close(fd);
        return n < 0 ? -1 : 0;
    }
    if (strcmp(a[0], "rename") == 0)
        return rename(a[1], a[2]);
    errno = EINVAL;
    return -1;
}

int main(int argc, char **argv)
{
    static char *empty[] = {NULL};
    for (int i = 1; i < argc;) {
        if (strcmp(argv[i], "exec") == 0 || strcmp(argv[i], "scrub-exec") == 0) {
            if (i + 1 >= argc)
                return 2;
            if (argv[i][0] == 'e')
                execv(argv[i + 1], argv + i + 1);
            else
                execve(argv[i + 1], argv + i + 1, empty);
            printf("err %s\n", ename(errno));
            return 127;
        }
        int used;
        if (i + 1 >= argc)
            return 2;
        if (op(argv + i, &used) != 0) {
            printf("err %s\n", ename(errno));
            return 1;
        }
        puts("ok");
        fflush(stdout);
        i += used;
    }
    return 0;
}
