/* renameat2 for the musl build of the command: musl 1.2.3 has no wrapper. */
#include <sys/syscall.h>
#include <unistd.h>

int renameat2(int olddir, const char *oldpath, int newdir, const char *newpath, unsigned flags)
{
    return (int)syscall(SYS_renameat2, olddir, oldpath, newdir, newpath, flags);
}
