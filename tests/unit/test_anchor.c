/* Unit tests for rg_anchor_at: which directory a name is anchored to, and
 * that a name the kernel would refuse fails here with the kernel's errno
 * rather than being split into two names it would take. Runs on a scratch
 * directory under $TMPDIR. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "guard/anchor.h"

static int top = -1; /* the scratch directory */
static char top_path[PATH_MAX];

static bool same_dir(int a, int b)
{
    struct stat sa, sb;
    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_ino == sb.st_ino &&
           sa.st_dev == sb.st_dev;
}

static bool is_open(int fd) { return fcntl(fd, F_GETFD) >= 0; }

/* A relative path of exactly len bytes whose directories exist under top:
 * 200-byte components, then a last one that makes up the length. */
static char *long_path(size_t len)
{
    static char p[PATH_MAX + 8];
    size_t n = 0;
    while (n + 201 + 1 + 1 < len) {
        if (n)
            p[n++] = '/';
        memset(p + n, 'd', 200);
        n += 200;
        p[n] = '\0';
        mkdirat(top, p, 0700);
    }
    p[n++] = '/';
    memset(p + n, 'f', len - n);
    p[len] = '\0';
    return p;
}

TEST(a_path_of_path_max_bytes_is_enametoolong)
{
    struct rg_anchor a;
    const char *p = long_path(PATH_MAX);
    CHECK_EQ_INT(strlen(p), PATH_MAX);
    CHECK_EQ_INT(rg_anchor_at(&a, top, p, 0), -ENAMETOOLONG);
    CHECK(!a.owned);
}

TEST(a_path_one_byte_shorter_is_anchored_on_its_directory)
{
    struct rg_anchor a;
    const char *p = long_path(PATH_MAX - 1);
    CHECK_EQ_INT(rg_anchor_at(&a, top, p, 0), 0);
    CHECK(a.owned);
    CHECK_EQ_STR(a.name, strrchr(p, '/') + 1);
    rg_anchor_drop(&a);
}

TEST(an_empty_path_is_enoent)
{
    struct rg_anchor a;
    CHECK_EQ_INT(rg_anchor_at(&a, top, "", 0), -ENOENT);
    CHECK(!a.owned);
}

TEST(a_name_under_a_closed_dirfd_is_ebadf)
{
    struct rg_anchor a;
    CHECK(!is_open(987));
    CHECK_EQ_INT(rg_anchor_at(&a, 987, "f", 0), -EBADF);
    CHECK_EQ_INT(rg_anchor_at(&a, 987, "..", 0), -EBADF);
    CHECK_EQ_INT(rg_anchor_at(&a, 987, "d/f", 0), -EBADF);
    CHECK(!a.owned);
}

TEST(a_name_under_a_dirfd_on_a_file_is_enotdir)
{
    struct rg_anchor a;
    int fd = openat(top, "plain", O_RDONLY | O_CLOEXEC);
    CHECK(fd >= 0);
    CHECK_EQ_INT(rg_anchor_at(&a, fd, "f", 0), -ENOTDIR);
    close(fd);
}

TEST(a_missing_or_file_directory_fails_as_the_call_would)
{
    struct rg_anchor a;
    CHECK_EQ_INT(rg_anchor_at(&a, top, "missing/f", 0), -ENOENT);
    CHECK_EQ_INT(rg_anchor_at(&a, top, "plain/f", 0), -ENOTDIR);
}

TEST(a_single_name_is_anchored_on_dirfd_itself)
{
    struct rg_anchor a;
    CHECK_EQ_INT(rg_anchor_at(&a, top, "f", 0), 0);
    CHECK(a.owned);
    CHECK(a.dirfd != top);
    CHECK(same_dir(a.dirfd, top));
    CHECK_EQ_STR(a.name, "f");
    rg_anchor_drop(&a);
}

TEST(a_name_in_a_subdirectory_is_anchored_there_trailing_slash_kept)
{
    struct rg_anchor a;
    int sub = openat(top, "sub", O_PATH | O_DIRECTORY | O_CLOEXEC);
    CHECK_EQ_INT(rg_anchor_at(&a, top, "sub/g/", 0), 0);
    CHECK(same_dir(a.dirfd, sub));
    CHECK_EQ_STR(a.name, "g/");
    rg_anchor_drop(&a);
    close(sub);
}

TEST(a_name_ending_in_dots_keeps_its_whole_path)
{
    struct rg_anchor a;
    CHECK_EQ_INT(rg_anchor_at(&a, top, "sub/..", 0), 0);
    CHECK(same_dir(a.dirfd, top));
    CHECK_EQ_STR(a.name, "sub/..");
    rg_anchor_drop(&a);
}

TEST(an_absolute_name_ignores_a_closed_dirfd)
{
    struct rg_anchor a;
    char p[PATH_MAX + 8];
    snprintf(p, sizeof p, "%s/f", top_path);
    CHECK_EQ_INT(rg_anchor_at(&a, 987, p, 0), 0);
    CHECK(same_dir(a.dirfd, top));
    CHECK_EQ_STR(a.name, "f");
    rg_anchor_drop(&a);
    CHECK_EQ_INT(rg_anchor_at(&a, 987, "/", 0), 0);
    CHECK(!a.owned);
    CHECK_EQ_INT(a.dirfd, 987);
}

TEST(drop_closes_only_what_the_anchor_opened)
{
    struct rg_anchor a;
    CHECK_EQ_INT(rg_anchor_at(&a, top, "f", 0), 0);
    int fd = a.dirfd;
    rg_anchor_drop(&a);
    CHECK(!is_open(fd));
    rg_anchor_drop(&a); /* twice: nothing more to close */
    CHECK(is_open(top));
}

TEST(a_second_name_in_the_same_directory_shares_the_first_descriptor)
{
    struct rg_anchor from, to;
    CHECK_EQ_INT(rg_anchor_at(&from, top, "sub/f.tmp", 0), 0);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, "sub//f", 0), 0);
    CHECK_EQ_INT(to.dirfd, from.dirfd);
    CHECK(!to.owned);
    CHECK_EQ_STR(to.name, "f");
    rg_anchor_drop(&to);
    CHECK(is_open(from.dirfd)); /* the first name's to close */
    rg_anchor_drop(&from);
    /* "./x" and "y" name one directory: sed -i renames ./sedXXXXXX onto f. */
    CHECK_EQ_INT(rg_anchor_at(&from, top, "./sedXYZ", 0), 0);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, "f", 0), 0);
    CHECK_EQ_INT(to.dirfd, from.dirfd);
    CHECK_EQ_STR(to.name, "f");
    rg_anchor_drop(&to);
    rg_anchor_drop(&from);
}

TEST(a_second_name_elsewhere_is_anchored_on_its_own)
{
    struct rg_anchor from, to;
    CHECK_EQ_INT(rg_anchor_at(&from, top, "sub/f", 0), 0);
    /* Another directory, the same string from another dirfd, another
     * resolve: each opened anew. */
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, "f", 0), 0);
    CHECK(to.owned && to.dirfd != from.dirfd && same_dir(to.dirfd, top));
    rg_anchor_drop(&to);
    int sub = openat(top, "sub", O_PATH | O_DIRECTORY | O_CLOEXEC);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, sub, "sub/f", 0), -ENOENT);
    CHECK(!to.owned);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, "sub/g", RESOLVE_NO_MAGICLINKS), 0);
    CHECK(to.owned && to.dirfd != from.dirfd && same_dir(to.dirfd, sub));
    rg_anchor_drop(&to);
    rg_anchor_drop(&from);
    close(sub);
}

TEST(a_second_name_fails_as_the_call_would_though_the_first_was_shared)
{
    struct rg_anchor from, to;
    CHECK_EQ_INT(rg_anchor_at(&from, top, "f", 0), 0);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, "", 0), -ENOENT);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, long_path(PATH_MAX), 0), -ENAMETOOLONG);
    CHECK(!to.owned);
    rg_anchor_drop(&from);
}

/* The directory both names are in is swapped for another between the two
 * anchors: one descriptor keeps both names in the directory the first was
 * resolved to, as a rename of both at one instant would find them. */
TEST(a_directory_swapped_between_the_names_does_not_split_them)
{
    struct rg_anchor from, to;
    mkdirat(top, "x", 0700);
    mkdirat(top, "y", 0700);
    int x = openat(top, "x", O_PATH | O_DIRECTORY | O_CLOEXEC);
    CHECK_EQ_INT(rg_anchor_at(&from, top, "x/n", 0), 0);
    /* By number: musl has no renameat2 wrapper. */
    CHECK(syscall(SYS_renameat2, top, "x", top, "y", RENAME_EXCHANGE) == 0);
    CHECK_EQ_INT(rg_anchor_beside(&to, &from, top, "x/v", 0), 0);
    CHECK_EQ_INT(to.dirfd, from.dirfd);
    CHECK(same_dir(to.dirfd, x));
    rg_anchor_drop(&to);
    rg_anchor_drop(&from);
    close(x);
}

/* Relative to its directory's descriptor: the long path's whole name is
 * longer than PATH_MAX, which nftw() and remove() of the full path refuse. */
static void remove_tree(int dirfd, const char *name)
{
    if (unlinkat(dirfd, name, 0) == 0)
        return;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return;
    }
    for (struct dirent *e; (e = readdir(dir));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            remove_tree(fd, e->d_name);
    closedir(dir);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(top_path, sizeof top_path, "%s/rg-anchor-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(top_path) || (top = open(top_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        perror("scratch directory");
        exit(1);
    }
    mkdirat(top, "sub", 0700);
    close(openat(top, "plain", O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
}

int main(void)
{
    scratch();
    RUN(a_path_of_path_max_bytes_is_enametoolong);
    RUN(a_path_one_byte_shorter_is_anchored_on_its_directory);
    RUN(an_empty_path_is_enoent);
    RUN(a_name_under_a_closed_dirfd_is_ebadf);
    RUN(a_name_under_a_dirfd_on_a_file_is_enotdir);
    RUN(a_missing_or_file_directory_fails_as_the_call_would);
    RUN(a_single_name_is_anchored_on_dirfd_itself);
    RUN(a_name_in_a_subdirectory_is_anchored_there_trailing_slash_kept);
    RUN(a_name_ending_in_dots_keeps_its_whole_path);
    RUN(an_absolute_name_ignores_a_closed_dirfd);
    RUN(drop_closes_only_what_the_anchor_opened);
    RUN(a_second_name_in_the_same_directory_shares_the_first_descriptor);
    RUN(a_second_name_elsewhere_is_anchored_on_its_own);
    RUN(a_second_name_fails_as_the_call_would_though_the_first_was_shared);
    RUN(a_directory_swapped_between_the_names_does_not_split_them);
    close(top);
    remove_tree(AT_FDCWD, top_path);
    return check_done();
}
