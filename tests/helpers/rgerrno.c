/*
 * rgerrno: errno through every hooked entry point, in one process.
 *
 *   rgerrno success   each call succeeds; errno, set to a sentinel before,
 *                     must still hold it after
 *   rgerrno refused   each write of "unread" (never read, in the cwd) must
 *                     fail with exactly EACCES
 *   rgerrno enoent    each write under "missing/" (no such directory) must
 *                     fail with ENOENT, not a refusal
 *
 * Run in an empty directory of the session (it creates what it needs).
 * Prints "NAME ok" or "NAME FAIL ..." per call; exits 1 if any failed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SENTINEL 12345

int __open_2(const char *, int);
int __open64_2(const char *, int);
int __openat_2(int, const char *, int);
int __openat64_2(int, const char *, int);
int close_range(unsigned, unsigned, int);

static int failures;

static void report(const char *name, int ok, long r, int err)
{
    if (ok) {
        printf("%s ok\n", name);
    } else {
        printf("%s FAIL: returned %ld, errno %d (%s)\n", name, r, err, strerror(err));
        failures++;
    }
}

/* A call that must succeed (result >= 0, or != NULL) and keep errno. */
#define SUCCEED(name, call)                              \
    do {                                                 \
        errno = SENTINEL;                                \
        long r_ = (long)(call);                          \
        int e_ = errno;                                  \
        report(name, r_ >= 0 && e_ == SENTINEL, r_, e_); \
    } while (0)
#define SUCCEED_PTR(name, call)                                    \
    do {                                                           \
        errno = SENTINEL;                                          \
        void *p_ = (void *)(call);                                 \
        int e_ = errno;                                            \
        report(name, p_ &&e_ == SENTINEL, (long)(p_ != NULL), e_); \
        if (p_)                                                    \
            fclose(p_);                                            \
    } while (0)
/* A call that must fail (-1 or NULL) with errno WANT. */
#define FAIL_WITH(name, want, call)                     \
    do {                                                \
        errno = SENTINEL;                               \
        long r_ = (long)(call);                         \
        int e_ = errno;                                 \
        report(name, r_ == -1 && e_ == (want), r_, e_); \
        if (r_ >= 0)                                    \
            close((int)r_);                             \
    } while (0)
#define FAIL_PTR_WITH(name, want, call)                            \
    do {                                                           \
        errno = SENTINEL;                                          \
        FILE *p_ = (call);                                         \
        int e_ = errno;                                            \
        report(name, !p_ && e_ == (want), (long)(p_ != NULL), e_); \
        if (p_)                                                    \
            fclose(p_);                                            \
    } while (0)

/* A new file: one left by an earlier run would be unread in this session. */
static void put(const char *path)
{
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0)
        close(fd);
}

static int fd_of(const char *path, int flags) { return open(path, flags | O_CREAT, 0644); }

static int spawn_true(posix_spawn_file_actions_t *fa)
{
    pid_t pid;
    char *argv[] = {"true", NULL};
    int r = posix_spawn(&pid, "/bin/true", fa, NULL, argv, NULL);
    if (r == 0)
        waitpid(pid, NULL, 0);
    return r == 0 ? 0 : -1;
}

static void success_opens(void)
{
    put("a");
    SUCCEED("open", fd_of("a", O_RDWR));
    SUCCEED("open64", open64("a", O_RDWR));
    SUCCEED("openat", openat(AT_FDCWD, "a", O_RDWR));
    SUCCEED("openat64", openat64(AT_FDCWD, "a", O_RDWR));
    SUCCEED("__open_2", __open_2("a", O_RDWR));
    SUCCEED("__open64_2", __open64_2("a", O_RDWR));
    SUCCEED("__openat_2", __openat_2(AT_FDCWD, "a", O_RDWR));
    SUCCEED("__openat64_2", __openat64_2(AT_FDCWD, "a", O_RDWR));
    unlink("b");
    SUCCEED("creat", creat("b", 0644));
    SUCCEED("creat64", creat64("b", 0644));
    SUCCEED("syscall(SYS_openat)", syscall(SYS_openat, AT_FDCWD, "a", O_RDWR, 0));
    struct open_how how = {.flags = O_RDWR};
    SUCCEED("syscall(SYS_openat2)", syscall(SYS_openat2, AT_FDCWD, "a", &how, sizeof how));
}

static void success_streams(void)
{
    SUCCEED_PTR("fopen", fopen("a", "r+"));
    SUCCEED_PTR("fopen64", fopen64("a", "w"));
    SUCCEED_PTR("freopen", freopen("a", "a", fopen("/dev/null", "r")));
    SUCCEED_PTR("freopen64", freopen64("a", "r", fopen("/dev/null", "r")));
    FILE *fp = fopen("a", "w");
    SUCCEED("fclose", fp ? fclose(fp) : -1);
}

static void success_truncates(void)
{
    int fd = fd_of("a", O_RDWR);
    SUCCEED("ftruncate", ftruncate(fd, 3));
    SUCCEED("ftruncate64", ftruncate64(fd, 2));
    SUCCEED("close", close(fd));
    SUCCEED("truncate", truncate("a", 1));
    SUCCEED("truncate64", truncate64("a", 0));
}

static void success_descriptors(void)
{
    int fd = fd_of("a", O_WRONLY);
    int fd2 = fd_of("b", O_WRONLY);
    SUCCEED("dup2", dup2(fd, fd2));
    SUCCEED("dup2 onto itself", dup2(fd, fd));
    SUCCEED("dup3", dup3(fd, fd2, O_CLOEXEC));
    SUCCEED("close_range", close_range((unsigned)fd2, (unsigned)fd2, 0));
    SUCCEED("close after dup", close(fd));
    fd = fd_of("a", O_WRONLY);
    errno = SENTINEL;
    closefrom(fd);
    report("closefrom", errno == SENTINEL && fcntl(fd, F_GETFD) == -1, 0, errno);
}

static void success_names(void)
{
    put("c");
    SUCCEED("rename", rename("c", "d"));
    SUCCEED("renameat", renameat(AT_FDCWD, "d", AT_FDCWD, "c"));
    SUCCEED("renameat2", renameat2(AT_FDCWD, "c", AT_FDCWD, "d", RENAME_NOREPLACE));
    SUCCEED("syscall(SYS_renameat2)", syscall(SYS_renameat2, AT_FDCWD, "d", AT_FDCWD, "c", 0));
    SUCCEED("syscall(SYS_truncate)", syscall(SYS_truncate, "c", 0));
    SUCCEED("unlink", unlink("c"));
    put("c");
    SUCCEED("unlinkat", unlinkat(AT_FDCWD, "c", 0));
    put("c");
    SUCCEED("remove", remove("c"));
}

static void success_temporaries(void)
{
    char t1[] = "tmpXXXXXX", t2[] = "tmpXXXXXX", t3[] = "tmpXXXXXX.s", t4[] = "tmpXXXXXX.s";
    SUCCEED("mkstemp", mkstemp(t1));
    SUCCEED("mkostemp", mkostemp(t2, O_CLOEXEC));
    SUCCEED("mkstemps", mkstemps(t3, 2));
    SUCCEED("mkostemps", mkostemps(t4, 2, O_CLOEXEC));
}

static void success_children(void)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    errno = SENTINEL;
    int r = posix_spawn_file_actions_addopen(&fa, 1, "a", O_WRONLY | O_TRUNC, 0644);
    report("posix_spawn_file_actions_addopen", r == 0 && errno == SENTINEL, r, errno);
    SUCCEED("posix_spawn", spawn_true(&fa));
    errno = SENTINEL;
    r = posix_spawn_file_actions_addchdir_np(&fa, ".");
    report("posix_spawn_file_actions_addchdir_np", r == 0 && errno == SENTINEL, r, errno);
    int dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    errno = SENTINEL;
    r = posix_spawn_file_actions_addfchdir_np(&fa, dir);
    report("posix_spawn_file_actions_addfchdir_np", r == 0 && errno == SENTINEL, r, errno);
    close(dir);
    posix_spawn_file_actions_destroy(&fa);
    SUCCEED("system", system("true"));
    FILE *p = NULL;
    errno = SENTINEL;
    p = popen("true", "r");
    report("popen", p && errno == SENTINEL, p != NULL, errno);
    if (p)
        pclose(p);
}

/* Each call succeeds and keeps errno: in this order, as each group
 * leaves the files the next one starts from. */
static void success(void)
{
    success_opens();
    success_streams();
    success_truncates();
    success_descriptors();
    success_names();
    success_temporaries();
    success_children();
}

static void refused(void)
{
    const char *u = "unread";
    put("src");
    FAIL_WITH("open", EACCES, open(u, O_WRONLY));
    FAIL_WITH("open64", EACCES, open64(u, O_RDWR));
    FAIL_WITH("open O_RDONLY|O_TRUNC", EACCES, open(u, O_RDONLY | O_TRUNC));
    FAIL_WITH("openat", EACCES, openat(AT_FDCWD, u, O_WRONLY | O_TRUNC));
    FAIL_WITH("openat64", EACCES, openat64(AT_FDCWD, u, O_WRONLY));
    FAIL_WITH("__open_2", EACCES, __open_2(u, O_WRONLY));
    FAIL_WITH("__open64_2", EACCES, __open64_2(u, O_WRONLY));
    FAIL_WITH("__openat_2", EACCES, __openat_2(AT_FDCWD, u, O_WRONLY));
    FAIL_WITH("__openat64_2", EACCES, __openat64_2(AT_FDCWD, u, O_WRONLY));
    FAIL_WITH("creat", EACCES, creat(u, 0644));
    FAIL_WITH("creat64", EACCES, creat64(u, 0644));
    FAIL_WITH("syscall(SYS_open)", EACCES, syscall(SYS_open, u, O_WRONLY, 0));
    FAIL_WITH("syscall(SYS_openat)", EACCES, syscall(SYS_openat, AT_FDCWD, u, O_WRONLY, 0));
    struct open_how how = {.flags = O_WRONLY};
    FAIL_WITH("syscall(SYS_openat2)", EACCES, syscall(SYS_openat2, AT_FDCWD, u, &how, sizeof how));
    FAIL_WITH("syscall(SYS_creat)", EACCES, syscall(SYS_creat, u, 0644));
    FAIL_PTR_WITH("fopen w", EACCES, fopen(u, "w"));
    FAIL_PTR_WITH("fopen r+", EACCES, fopen(u, "r+"));
    FAIL_PTR_WITH("fopen a", EACCES, fopen(u, "a"));
    FAIL_PTR_WITH("fopen64", EACCES, fopen64(u, "w"));
    FAIL_PTR_WITH("freopen", EACCES, freopen(u, "w", fopen("/dev/null", "r")));
    FAIL_PTR_WITH("freopen64", EACCES, freopen64(u, "a", fopen("/dev/null", "r")));
    FAIL_WITH("rename", EACCES, rename("src", u));
    FAIL_WITH("renameat", EACCES, renameat(AT_FDCWD, "src", AT_FDCWD, u));
    FAIL_WITH("renameat2", EACCES, renameat2(AT_FDCWD, "src", AT_FDCWD, u, 0));
    FAIL_WITH("renameat2 exchange", EACCES,
              renameat2(AT_FDCWD, "src", AT_FDCWD, u, RENAME_EXCHANGE));
    FAIL_WITH("syscall(SYS_rename)", EACCES, syscall(SYS_rename, "src", u));
    FAIL_WITH("syscall(SYS_renameat2)", EACCES,
              syscall(SYS_renameat2, AT_FDCWD, "src", AT_FDCWD, u, 0));
    FAIL_WITH("truncate", EACCES, truncate(u, 0));
    FAIL_WITH("truncate64", EACCES, truncate64(u, 0));
    FAIL_WITH("syscall(SYS_truncate)", EACCES, syscall(SYS_truncate, u, 0));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    errno = SENTINEL;
    int r = posix_spawn_file_actions_addopen(&fa, 1, u, O_WRONLY | O_TRUNC, 0644);
    report("posix_spawn_file_actions_addopen", r == EACCES && errno == SENTINEL, r, errno);
    posix_spawn_file_actions_destroy(&fa);
}

static void enoent(void)
{
    const char *m = "missing/x";
    put("src");
    FAIL_WITH("open", ENOENT, open(m, O_WRONLY | O_CREAT | O_TRUNC, 0644));
    FAIL_WITH("open O_WRONLY", ENOENT, open(m, O_WRONLY));
    FAIL_WITH("open64", ENOENT, open64(m, O_RDWR | O_CREAT, 0644));
    FAIL_WITH("openat", ENOENT, openat(AT_FDCWD, m, O_WRONLY | O_CREAT, 0644));
    FAIL_WITH("openat64", ENOENT, openat64(AT_FDCWD, m, O_WRONLY | O_CREAT, 0644));
    FAIL_WITH("__open_2", ENOENT, __open_2(m, O_WRONLY));
    FAIL_WITH("__openat_2", ENOENT, __openat_2(AT_FDCWD, m, O_WRONLY));
    FAIL_WITH("creat", ENOENT, creat(m, 0644));
    FAIL_WITH("creat64", ENOENT, creat64(m, 0644));
    FAIL_WITH("syscall(SYS_openat)", ENOENT,
              syscall(SYS_openat, AT_FDCWD, m, O_WRONLY | O_CREAT, 0644));
    struct open_how how = {.flags = O_WRONLY | O_CREAT, .mode = 0644};
    FAIL_WITH("syscall(SYS_openat2)", ENOENT, syscall(SYS_openat2, AT_FDCWD, m, &how, sizeof how));
    FAIL_PTR_WITH("fopen w", ENOENT, fopen(m, "w"));
    FAIL_PTR_WITH("fopen64 a", ENOENT, fopen64(m, "a"));
    FAIL_PTR_WITH("freopen", ENOENT, freopen(m, "w", fopen("/dev/null", "r")));
    FAIL_WITH("rename", ENOENT, rename("src", m));
    FAIL_WITH("renameat", ENOENT, renameat(AT_FDCWD, "src", AT_FDCWD, m));
    FAIL_WITH("renameat2", ENOENT, renameat2(AT_FDCWD, "src", AT_FDCWD, m, 0));
    FAIL_WITH("truncate", ENOENT, truncate(m, 0));
    FAIL_WITH("truncate64", ENOENT, truncate64(m, 0));
    FAIL_WITH("unlink", ENOENT, unlink(m));
    FAIL_WITH("remove", ENOENT, remove(m));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && strcmp(argv[1], "success") == 0)
        success();
    else if (argc == 2 && strcmp(argv[1], "refused") == 0)
        refused();
    else if (argc == 2 && strcmp(argv[1], "enoent") == 0)
        enoent();
    else {
        fprintf(stderr, "usage: rgerrno success|refused|enoent\n");
        return 2;
    }
    return failures ? 1 : 0;
}
