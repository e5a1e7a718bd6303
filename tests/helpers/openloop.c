/* openloop N FILE...: open, read 4 KiB, close, N times over the FILEs. A
 * read-open loop for measuring what the shim costs (scripts/dev/bench-hash.sh). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    char buf[4096];
    int n = atoi(argv[1]);
    for (int i = 0; i < n; i++)
        for (int a = 2; a < argc; a++) {
            int fd = open(argv[a], O_RDONLY);
            if (fd < 0)
                return 1;
            if (read(fd, buf, sizeof buf) < 0)
                return 1;
            close(fd);
        }
    return 0;
}
