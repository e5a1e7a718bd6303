/* Unit tests for dircache.c: which absolute reads lie outside every root,
 * and that a directory's cached answer (by a hash of its path) is never
 * another's. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "guard/dircache.h"
static struct rg_ctx ctx; /* large: fds[] */

static void use_roots(const char *const *roots, size_t n)
{
    memset(&ctx, 0, sizeof ctx);
    for (size_t i = 0; i < n; i++)
        rg_ctx_add_root(&ctx, roots[i]);
}

static char top[] = "/tmp/rg-dircache-XXXXXX";
static char root[256];

static void mkpath(const char *rel, bool link_to_root)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    if (link_to_root)
        CHECK(symlink(root, p) == 0);
    else
        CHECK(mkdir(p, 0755) == 0);
}

static bool outside(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    return rg_abs_outside_roots(&ctx, p);
}

TEST(reads_under_the_root_or_its_links_are_not_outside)
{
    const char *r = root;
    use_roots(&r, 1);
    CHECK(outside("out/f"));
    CHECK(outside("out/f")); /* cached */
    CHECK(!outside("root/f"));
    CHECK(!outside("root")); /* the root itself */
    CHECK(!outside("ln/f")); /* a link into it: its directory resolves there */
    CHECK(!outside("ln/f"));
    CHECK(!outside("out/../root/f")); /* not plain: recorded */
    CHECK(outside("rootx/f"));        /* beside the root, sharing its name's start */
}

/* Directories of one length that differ in one byte each, at every place
 * the hash takes a different path (its sixteen-byte steps, the overlapping
 * tail): the one linked into the root keeps its own answer after its
 * neighbour outside was cached. */
TEST(a_directory_never_takes_its_neighbours_answer)
{
    const char *r = root;
    use_roots(&r, 1);
    static const char name[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
    for (size_t len = 1; len < sizeof name; len += 3) {
        for (size_t at = 0; at < len; at += 5) {
            char a[64], b[64], fa[80], fb[80];
            memcpy(a, name, len);
            a[len] = '\0';
            memcpy(b, a, len + 1);
            b[at] = '_';
            mkpath(a, false);
            mkpath(b, true);
            snprintf(fa, sizeof fa, "%s/f", a);
            snprintf(fb, sizeof fb, "%s/f", b);
            CHECK(outside(fa));
            CHECK(!outside(fb));
            CHECK(outside(fa));
            char p[512];
            snprintf(p, sizeof p, "%s/%s", top, a);
            rmdir(p);
            snprintf(p, sizeof p, "%s/%s", top, b);
            unlink(p);
        }
    }
}

/* A hidden directory (~/.pyenv, ~/.cache, ~/.nvm) is a plain name: the
 * toolchains there are read as often as /usr's. "." and ".." components
 * are what is not plain. */
TEST(a_hidden_directory_outside_the_roots_is_outside)
{
    const char *r = root;
    use_roots(&r, 1);
    CHECK(outside(".hidden/f"));
    CHECK(outside(".hidden/..x/f")); /* a name starting with two dots */
    CHECK(!outside(".hidden/./f"));
    CHECK(!outside(".hidden/../out/f"));
    CHECK(!outside(".hidden//f"));
    CHECK(!outside("root/.hidden/f")); /* under the root */
}

/* Either way the roots are compared (strncmp, or within the bounds of the
 * path's last '/', as the hint of the last read's side picks): for roots
 * of lengths about a word's, ending at, before and after a directory or a
 * file of the paths, with and without a trailing '/', a path is outside
 * exactly when no root lexically holds it (all the directories are real,
 * outside the roots). */
TEST(a_path_is_outside_exactly_when_no_root_holds_it_lexically)
{
    static const char *const dirs[] = {"",          "/q",         "/qrstuvw",
                                       "/qrstuvwx", "/qrstuvwxy", "/qrstuvwx/yzabcdefghijklm"};
    for (size_t d = 1; d < sizeof dirs / sizeof *dirs; d++)
        mkpath(dirs[d] + 1, false);
    static const char *const bases[] = {"f", "abcdefgh", ""};
    static const char *const ends[] = {"", "/", "/f", "/abcdefgh", "x", "/qrstuvwx/y"};
    enum { NDIRS = sizeof dirs / sizeof *dirs, NENDS = sizeof ends / sizeof *ends };
    char roots[NDIRS * (NENDS + 1)][256];
    size_t nroots = 0;
    for (size_t d = 0; d < NDIRS; d++) {
        for (size_t e = 0; e < NENDS; e++)
            snprintf(roots[nroots++], sizeof *roots, "%s%s%s", top, dirs[d], ends[e]);
        snprintf(roots[nroots], sizeof *roots, "%s%s", top, dirs[d]);
        roots[nroots][strlen(roots[nroots]) - 1] = '\0'; /* one byte short of it */
        nroots++;
    }
    for (size_t i = 0; i < nroots; i++) {
        const char *r = roots[i];
        use_roots(&r, 1);
        for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
            for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
                char p[512];
                snprintf(p, sizeof p, "%s%s/%s", top, dirs[d], bases[b]);
                for (int way = 0; way < 2; way++) {
                    atomic_store(&ctx.outside_last, way);
                    CHECK(rg_abs_outside_roots(&ctx, p) == !rg_under_a_root(&ctx, p));
                }
            }
        }
        for (int way = 0; way < 2; way++) {
            atomic_store(&ctx.outside_last, way);
            CHECK(!rg_abs_outside_roots(&ctx, r)); /* the root itself */
        }
    }
    for (size_t d = sizeof dirs / sizeof *dirs - 1; d > 0; d--) {
        char p[512];
        snprintf(p, sizeof p, "%s%s", top, dirs[d]);
        rmdir(p);
    }
}

int main(void)
{
    if (!mkdtemp(top))
        return 1;
    snprintf(root, sizeof root, "%s/root", top);
    mkpath("root", false);
    mkpath("out", false);
    mkpath("ln", true);
    mkpath("rootx", false);
    mkpath(".hidden", false);
    mkpath(".hidden/..x", false);
    mkpath("root/.hidden", false);
    RUN(reads_under_the_root_or_its_links_are_not_outside);
    RUN(a_directory_never_takes_its_neighbours_answer);
    RUN(a_hidden_directory_outside_the_roots_is_outside);
    RUN(a_path_is_outside_exactly_when_no_root_holds_it_lexically);
    char p[512];
    snprintf(p, sizeof p, "%s/ln", top);
    unlink(p);
    snprintf(p, sizeof p, "%s/out", top);
    rmdir(p);
    snprintf(p, sizeof p, "%s/rootx", top);
    rmdir(p);
    static const char *const hidden[] = {".hidden/..x", ".hidden", "root/.hidden"};
    for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
        snprintf(p, sizeof p, "%s/%s", top, hidden[i]);
        rmdir(p);
    }
    rmdir(root);
    rmdir(top);
    return check_done();
}
