#include "cli/undo/writers.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Was descriptor fd of pid opened for writing? Its fdinfo says, in octal. */
static bool fd_writes(int pid, const char *fd)
{
    char path[320], line[128];
    snprintf(path, sizeof path, "/proc/%d/fdinfo/%s", pid, fd);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    unsigned long flags = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        if (strncmp(line, "flags:", 6) == 0) {
            char *end;
            flags = strtoul(line + 6, &end, 8);
            found = end != line + 6;
        }
    fclose(f);
    return found && (flags & O_ACCMODE) != O_RDONLY;
}

static bool pid_writes(int pid, uint64_t dev, uint64_t ino)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    if (!d)
        return false;
    bool writes = false;
    struct dirent *e;
    while (!writes && (e = readdir(d))) {
        struct stat st;
        writes = e->d_name[0] != '.' && fstatat(dirfd(d), e->d_name, &st, 0) == 0 &&
                 st.st_ino == ino && st.st_dev == dev && fd_writes(pid, e->d_name);
    }
    closedir(d);
    return writes;
}

static int32_t scan(uint64_t dev, uint64_t ino)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int32_t found = 0, self = (int32_t)getpid();
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end == '\0' && pid > 0 && pid != self && pid_writes((int)pid, dev, ino))
            found = (int32_t)pid;
    }
    closedir(d);
    return found;
}

/* A read lease is refused (EAGAIN) exactly while the file is open for
 * writing, a shared writable map included: one call, where the scan stats
 * every descriptor of every process. 1 (open for writing), 0 (not), -1
 * (no answer: not the file's owner, no leases on this file system). A lease
 * break (someone opening it meanwhile) would send SIGIO, whose default is to
 * end the process: ignored meanwhile. */
static int lease_says(int fd)
{
    struct sigaction ign = {.sa_handler = SIG_IGN}, was;
    sigaction(SIGIO, &ign, &was);
    int r = fcntl(fd, F_SETLEASE, F_RDLCK);
    int e = errno;
    if (r == 0)
        fcntl(fd, F_SETLEASE, F_UNLCK);
    sigaction(SIGIO, &was, NULL);
    return r == 0 ? 0 : e == EAGAIN ? 1 : -1;
}

int32_t rg_writer_of(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    int lease = lease_says(fd);
    if (lease == 0)
        return 0;
    int32_t pid = scan(st.st_dev, st.st_ino);
    return pid ? pid : lease > 0 ? -1 : 0;
}
