/* Per-call cost of the calls readguard hooks, in ns/op: run once bare and
 * once under the shim, by scripts/dev/bench.sh, which interleaves the runs and
 * takes medians. Each workload's loop is its own function (wl_*), so that
 * `valgrind --tool=callgrind --toggle-collect=wl_NAME` counts exactly the
 * instructions of its operations.
 *
 * Usage: rgbench DIR setup            make the files (run it without the shim)
 *        rgbench DIR ITERS [NAME...]  print "NAME ns/op iterations" per workload
 *                                     (ns/op: the median batch's, batched())
 * DIR/root is meant to be the session's root; DIR/outside lies outside it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rawsys.h"

#define NFILES 64
#define BLOCK 4096

static char dir[1024];
static char rootf[NFILES][1100], outf[NFILES][1100];
static char wfile[1100], refused[1100], target[1100], tmpname[1100];
static char buf[BLOCK];

static void die(const char *what, const char *path)
{
    fprintf(stderr, "rgbench: %s %s: %s\n", what, path, strerror(errno));
    exit(2);
}

static void names(void)
{
    for (int i = 0; i < NFILES; i++) {
        snprintf(rootf[i], sizeof rootf[i], "%s/root/r%02d", dir, i);
        snprintf(outf[i], sizeof outf[i], "%s/outside/o%02d", dir, i);
    }
    snprintf(wfile, sizeof wfile, "%s/root/write", dir);
    snprintf(refused, sizeof refused, "%s/root/unread", dir);
    snprintf(target, sizeof target, "%s/root/target", dir);
    snprintf(tmpname, sizeof tmpname, "%s/root/target.tmp", dir);
}

/* The first overwrite of a pre-existing 4 KiB file the session read: what
 * the journal keeps before it (guarded) against the plain overwrite (bare).
 * The files are made by setup, outside any session, with bytes of their
 * own; a round uses each once (a session's second overwrite of a file is
 * its own write, which the journal does not keep), so a round does at most
 * FIRST_FILES of them. Only the overwrite is timed. */
#define FIRST_FILES 2048
static long first_ns, first_next;

static void first_name(char *out, size_t cap, long i)
{
    snprintf(out, cap, "%s/root/first%04ld", dir, i % FIRST_FILES);
}

/* The same first overwrite of a file the session never read, which git
 * ignores (DIR/root/proj is a work tree whose .gitignore names *.ign): a
 * would-be refusal that asks git's rules and is journaled instead. */
static long journaled_ns, journaled_next;

static void journaled_name(char *out, size_t cap, long i)
{
    snprintf(out, cap, "%s/root/proj/j%04ld.ign", dir, i % FIRST_FILES);
}

/* label, if given, starts the file: no two files have the same bytes. */
static void make_file_as(const char *path, const char *label)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("cannot create", path);
    memset(buf, 'x', sizeof buf);
    /* The file's first bytes, not a string: no NUL goes after them. */
    if (label)
        memcpy(buf, label, strlen(label)); /* NOLINT(bugprone-not-null-terminated-result) */
    if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
        die("cannot write", path);
    close(fd);
}

static void make_file(const char *path) { make_file_as(path, NULL); }

static void setup(void)
{
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/root", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/outside", dir);
    mkdir(sub, 0755);
    for (int i = 0; i < NFILES; i++) {
        make_file(rootf[i]);
        make_file(outf[i]);
    }
    make_file(wfile);
    make_file(refused);
    make_file(target);
    snprintf(sub, sizeof sub, "%s/root/proj", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/root/proj/.git", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/root/proj/.gitignore", dir);
    FILE *gi = fopen(sub, "w");
    if (!gi || fputs("# what the project's tools own\n*.ign\n", gi) < 0 || fclose(gi) != 0)
        die("cannot write", sub);
    for (long i = 0; i < FIRST_FILES; i++) {
        char path[1200], label[32];
        first_name(path, sizeof path, i);
        snprintf(label, sizeof label, "first %ld", i);
        make_file_as(path, label);
        journaled_name(path, sizeof path, i);
        snprintf(label, sizeof label, "journaled %ld", i);
        make_file_as(path, label);
    }
}

static void read_once(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 || read(fd, buf, BLOCK) < 0)
        die("cannot read", path);
    close(fd);
}

/* The workloads. i is the iteration; each returns nothing the compiler may
 * drop, because every call is a system call. */

__attribute__((noinline)) static void wl_read_root(long n)
{
    for (long i = 0; i < n; i++)
        read_once(rootf[i % NFILES]);
}

/* Workload 1 plus the one fstat the shim adds to it, without the shim: the
 * floor the shim's read path can reach. The shim's own call, made as it
 * makes it (rawsys.h). */
__attribute__((noinline)) static void wl_read_fstat(long n)
{
    struct stat st;
    for (long i = 0; i < n; i++) {
        int fd = open(rootf[i % NFILES], O_RDONLY);
        if (fd < 0 || raw_sys2(SYS_fstat, fd, (long)&st) != 0 || read(fd, buf, BLOCK) < 0)
            die("cannot read", rootf[i % NFILES]);
        close(fd);
    }
}

__attribute__((noinline)) static void wl_read_outside(long n)
{
    for (long i = 0; i < n; i++)
        read_once(outf[i % NFILES]);
}

__attribute__((noinline)) static void wl_write_allowed(long n)
{
    for (long i = 0; i < n; i++) {
        int fd = open(wfile, O_WRONLY);
        if (fd < 0)
            die("cannot write-open", wfile);
        close(fd);
    }
}

/* Workload 3 plus exactly the system calls the shim adds to it, made by the
 * loop itself without the shim: the floor of the write path. A write of
 * the session's own bytes is judged at once, outside the critical section
 * (fstat, getpid), and the close restamps outside it too (getpid, fstat):
 * no signal-mask call on either side. */
__attribute__((noinline)) static void wl_write_floor(long n)
{
    struct stat st;
    for (long i = 0; i < n; i++) {
        int fd = open(wfile, O_WRONLY);
        if (fd < 0)
            die("cannot write-open", wfile);
        if (raw_sys2(SYS_fstat, fd, (long)&st) != 0 || raw_sys0(SYS_getpid) <= 0)
            die("cannot fstat", wfile);
        if (raw_sys0(SYS_getpid) <= 0 || raw_sys2(SYS_fstat, fd, (long)&st) != 0)
            die("cannot fstat", wfile);
        close(fd);
    }
}

/* Bare, the open succeeds and is closed; guarded, it is refused (EACCES). */
__attribute__((noinline)) static void wl_write_refused(long n)
{
    for (long i = 0; i < n; i++) {
        int fd = open(refused, O_WRONLY);
        if (fd >= 0)
            close(fd);
        else if (errno != EACCES)
            die("cannot write-open", refused);
    }
}

__attribute__((noinline)) static void wl_fopen(long n)
{
    for (long i = 0; i < n; i++) {
        FILE *fp = fopen(rootf[i % NFILES], "r");
        if (!fp)
            die("cannot fopen", rootf[i % NFILES]);
        fclose(fp);
    }
}

/* Only the rename is timed: making the new file is a create, not this. */
static long renamed_ns;

__attribute__((noinline)) static void rename_over(void)
{
    if (rename(tmpname, target) != 0)
        die("cannot rename onto", target);
}

__attribute__((noinline)) static void wl_rename(long n)
{
    struct timespec a, b;
    for (long i = 0; i < n; i++) {
        int fd = open(tmpname, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            die("cannot create", tmpname);
        close(fd);
        clock_gettime(CLOCK_MONOTONIC, &a);
        rename_over();
        clock_gettime(CLOCK_MONOTONIC, &b);
        renamed_ns += (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
    }
}

__attribute__((noinline)) static void overwrite_first(const char *path)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || write(fd, buf, BLOCK) != BLOCK)
        die("cannot overwrite", path);
    close(fd);
}

__attribute__((noinline)) static void wl_write_first(long n)
{
    struct timespec a, b;
    char path[1200];
    for (long i = 0; i < n; i++) {
        first_name(path, sizeof path, first_next++);
        read_once(path);
        snprintf(buf, sizeof buf, "%ld %ld", (long)getpid(), first_next);
        clock_gettime(CLOCK_MONOTONIC, &a);
        overwrite_first(path);
        clock_gettime(CLOCK_MONOTONIC, &b);
        first_ns += (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
    }
}

/* The session's later overwrites of one file, which the journal kept at
 * its first (the warm-up's): they must cost what any allowed write does.
 * In place, not O_TRUNC: ext4 flushes a file truncated and rewritten at
 * its close (auto_da_alloc), milliseconds of disk that would drown the
 * shim's cost. */
__attribute__((noinline)) static void wl_write_again(long n)
{
    for (long i = 0; i < n; i++) {
        int fd = open(wfile, O_WRONLY);
        if (fd < 0 || write(fd, buf, BLOCK) != BLOCK)
            die("cannot overwrite again", wfile);
        close(fd);
    }
}

/* Workload 6c plus exactly the system calls the shim adds to it, no shim:
 * its floor. Not row 3b's floor plus a write: the fstat that reads the
 * times (here, and the shim's) marks them seen, so the next write must
 * take a fine-grained timestamp and dirty the inode (the kernel's
 * multigrain timestamps), where an unseen file's writes within one clock
 * tick leave the inode alone. That is kernel work of the write, which
 * only a loop that writes shows. */
__attribute__((noinline)) static void wl_write_again_floor(long n)
{
    struct stat st;
    for (long i = 0; i < n; i++) {
        int fd = open(wfile, O_WRONLY);
        if (fd < 0 || raw_sys2(SYS_fstat, fd, (long)&st) != 0 || raw_sys0(SYS_getpid) <= 0 ||
            write(fd, buf, BLOCK) != BLOCK)
            die("cannot overwrite again", wfile);
        if (raw_sys0(SYS_getpid) <= 0 || raw_sys2(SYS_fstat, fd, (long)&st) != 0)
            die("cannot fstat", wfile);
        close(fd);
    }
}

/* Its own words, or the compiler folds it into overwrite_first and
 * callgrind cannot tell the two apart. */
__attribute__((noinline)) static void overwrite_journaled(const char *path)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || write(fd, buf, BLOCK) != BLOCK)
        die("cannot overwrite the git-ignored", path);
    close(fd);
}

__attribute__((noinline)) static void wl_write_journaled(long n)
{
    struct timespec a, b;
    char path[1200];
    for (long i = 0; i < n; i++) {
        journaled_name(path, sizeof path, journaled_next++);
        snprintf(buf, sizeof buf, "%ld %ld", (long)getpid(), journaled_next);
        clock_gettime(CLOCK_MONOTONIC, &a);
        overwrite_journaled(path);
        clock_gettime(CLOCK_MONOTONIC, &b);
        journaled_ns += (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
    }
}

__attribute__((noinline)) static void wl_stat(long n)
{
    struct stat st;
    for (long i = 0; i < n; i++)
        if (stat(rootf[i % NFILES], &st) != 0 || lstat(outf[i % NFILES], &st) != 0 ||
            access(rootf[i % NFILES], R_OK) != 0)
            die("cannot stat", rootf[i % NFILES]);
}

/* What the shim's added system calls cost here, for BENCHMARKS.md's floors:
 * neither call is hooked. */
static int stat_fd = -1;

__attribute__((noinline)) static void wl_fstat(long n)
{
    struct stat st;
    if (stat_fd < 0 && (stat_fd = open(rootf[0], O_RDONLY)) < 0)
        die("cannot open", rootf[0]);
    for (long i = 0; i < n; i++)
        if (fstat(stat_fd, &st) != 0)
            die("cannot fstat", rootf[0]);
}

__attribute__((noinline)) static void wl_getpid(long n)
{
    for (long i = 0; i < n; i++)
        if (getpid() <= 0)
            die("no pid", "");
}

/* What blocks a write hook's critical section (shim/guard/critical.c):
 * every signal but the synchronous ones. */
static sigset_t hook_set;

static void hook_signals(void)
{
    sigfillset(&hook_set);
    int sync[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sync / sizeof *sync; i++)
        sigdelset(&hook_set, sync[i]);
}

/* One rt_sigprocmask as a write hook makes them, in pairs (its critical
 * section blocks the hook's set, then puts the program's mask back): a
 * call that changes the mask, which costs the kernel more than one that
 * leaves it as it is. */
__attribute__((noinline)) static void wl_sigmask(long n)
{
    sigset_t old;
    hook_signals();
    for (long i = 0; i < n; i++)
        if (sigprocmask(SIG_BLOCK, &hook_set, &old) != 0 ||
            sigprocmask(SIG_SETMASK, &old, NULL) != 0)
            die("no sigprocmask", "");
}

struct workload {
    const char *name;
    void (*run)(long n);
    int per_call; /* calls per iteration the ns figure is divided into */
};

static const struct workload workloads[] = {
    {"read_root", wl_read_root, 1},
    {"read_fstat", wl_read_fstat, 1},
    {"read_outside", wl_read_outside, 1},
    {"write_allowed", wl_write_allowed, 1},
    {"write_floor", wl_write_floor, 1},
    {"write_refused", wl_write_refused, 1},
    {"fopen", wl_fopen, 1},
    {"rename", wl_rename, 1},
    {"write_first", wl_write_first, 1},
    {"write_again", wl_write_again, 1},
    {"write_again_floor", wl_write_again_floor, 1},
    {"write_journaled", wl_write_journaled, 1},
    {"stat", wl_stat, 3},
    {"fstat", wl_fstat, 1},
    {"getpid", wl_getpid, 1},
    {"sigmask", wl_sigmask, 2},
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A round's ns/op is the median of its batches of BATCH calls (NFILES:
 * each batch reads every file once), not the whole loop's mean: on the
 * shared 2-CPU machine a preemption puts milliseconds into the one batch
 * it lands in, and the whole loop's mean took them all, more or less of
 * them from round to round, so that its medians moved by more than the
 * shim's cost between rows that should be equal (bench-notes.md). The
 * instruction counts (callgrind) count every call, a rare dear one too. */
#define BATCH NFILES

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs n calls in all, as one loop would, and returns the median batch's
 * ns per call; a remainder short of a batch is run but not timed. */
static double batched(const struct workload *w, long n)
{
    long nb = n / BATCH;
    double *ns = malloc(sizeof *ns * (size_t)(nb ? nb : 1));
    if (!ns)
        die("no memory for", "the batches");
    for (long b = 0; b < nb; b++) {
        double t0 = now_ns();
        w->run(BATCH);
        ns[b] = (now_ns() - t0) / BATCH / w->per_call;
    }
    if (n % BATCH)
        w->run(n % BATCH);
    qsort(ns, (size_t)nb, sizeof *ns, by_value);
    double med = nb ? ns[nb / 2] : -1;
    free(ns);
    return med;
}

static void run(const struct workload *w, long iters)
{
    long n = iters;
    bool once = w->run == wl_write_first || w->run == wl_write_journaled;
    if (once && n + n / 10 + 1 > FIRST_FILES)
        n = (FIRST_FILES - 1) * 10 / 11;
    /* Each workload starts from the same state: the files it writes read,
     * as an editor would have them. */
    read_once(wfile);
    read_once(target);
    w->run(n / 10 + 1); /* warm caches and the table */
    renamed_ns = first_ns = journaled_ns = 0;
    double t0 = now_ns(), med = -1;
    if (w->run == wl_rename || once)
        w->run(n);
    else
        med = batched(w, n);
    double ns = now_ns() - t0;
    if (w->run == wl_rename)
        ns = (double)renamed_ns;
    if (w->run == wl_write_first)
        ns = (double)first_ns;
    if (w->run == wl_write_journaled)
        ns = (double)journaled_ns;
    printf("%s %.1f %ld\n", w->name, med >= 0 ? med : ns / (double)n / w->per_call, n + n / 10 + 1);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rgbench DIR setup | rgbench DIR ITERS [NAME...]\n");
        return 2;
    }
    if (!realpath(argv[1], dir))
        die("no directory", argv[1]);
    names();
    if (strcmp(argv[2], "setup") == 0) {
        setup();
        return 0;
    }
    /* By strtol, not atol: "10x" is refused, not read as 10. */
    char *end;
    long iters = strtol(argv[2], &end, 10);
    if (*end || iters <= 0) {
        fprintf(stderr, "rgbench: ITERS must be a positive number\n");
        return 2;
    }
    size_t nw = sizeof workloads / sizeof *workloads;
    for (int a = 3; a < argc; a++) {
        size_t i = 0;
        while (i < nw && strcmp(argv[a], workloads[i].name) != 0)
            i++;
        if (i == nw) {
            fprintf(stderr, "rgbench: no workload '%s'\n", argv[a]);
            return 2;
        }
    }
    for (size_t i = 0; i < nw; i++) {
        int wanted = argc == 3;
        for (int a = 3; a < argc; a++)
            wanted |= strcmp(argv[a], workloads[i].name) == 0;
        if (wanted)
            run(&workloads[i], iters);
    }
    return 0;
}
