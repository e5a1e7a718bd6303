/* readguard check: would a write be allowed now? Asks the same rg_decide()
 * the shim asks, with the same facts, and words a refusal the same way. */
#include "cli/verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/pick.h"
#include "core/content.h"
#include "core/policy.h"
#include "core/report.h"
#include "core/text.h"
#include "guard/readhash.h"
#include "os/procfd.h"

static const char usage[] =
    "Usage: readguard check [--session PATH] FILE...\n"
    "Say whether the session may overwrite each FILE now, without writing it.\n"
    "A refusal is worded exactly as the shim words it:\n"
    "  refused to write 'FILE': it has not been read in this session. ...\n"
    "\n"
    "  -s, --session PATH   the session table (default: $READGUARD_SESSION, else the\n"
    "                       one running session of this user)\n"
    "  -q, --quiet          print nothing; only the exit status answers\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0 if every FILE may be written (in warn mode, always), 1 if a\n"
    "write to some FILE would be refused, 2 if there is no usable session or a FILE\n"
    "cannot be examined.\n";

static enum rg_scope scope_of(const struct rg_header *h, const char *path)
{
    char abs[PATH_MAX];
    if (!realpath(path, abs))
        return RG_SCOPE_GUARDED; /* as the shim: where it cannot tell, it guards */
    for (const char *r = rg_table_root(h, NULL); r; r = rg_table_root(h, r))
        if (rg_path_under(abs, r))
            return RG_SCOPE_GUARDED;
    return RG_SCOPE_FREE;
}

static const char *why_allowed(const struct rg_file *f, const struct rg_facts *facts)
{
    if (!f->exists)
        return "it does not exist: writing it creates a new file.";
    if (!f->regular)
        return "it is not a regular file.";
    if (facts->rec.found && f->hashed && f->hash == facts->rec.hash)
        return "it was read in this session and its bytes are the same.";
    if (facts->rec.found && facts->rec.mtime_ns == f->mtime_ns && facts->rec.size == f->size)
        return "it was read in this session and has not changed since.";
    if (facts->rec.writers > 0 && facts->writer_alive)
        return "a process of this session is writing it.";
    return "it is outside the session's roots.";
}

/* The bytes of the file examined, for a decision that asks for them. */
static void hash_of(const char *path, struct rg_file *f)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    f->hashed = true;
    f->hash = 0;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_ino == f->ino && st.st_dev == f->dev)
        f->hash = rg_content_hash(fd, f->size);
    if (fd >= 0)
        close(fd);
}

/* Fills f; false (after reporting) when the path cannot be examined. */
static bool examine(const char *path, struct rg_file *f)
{
    struct stat st;
    *f = (struct rg_file){.scope = RG_SCOPE_UNKNOWN};
    if (stat(path, &st) == 0) {
        f->exists = true;
        f->regular = S_ISREG(st.st_mode);
        f->dev = st.st_dev;
        f->ino = st.st_ino;
        f->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        f->size = st.st_size;
        return true;
    }
    int e = errno;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    if (e == ENOENT && stat(dirname(dir), &st) == 0 && S_ISDIR(st.st_mode))
        return true; /* a new file in an existing directory */
    rg_err("check: '%s': %s", path, strerror(e));
    return false;
}

static int check_one(struct rg_table *t, const char *path, void *arg)
{
    bool quiet = *(const bool *)arg;
    struct rg_file f;
    if (!examine(path, &f))
        return RG_EXIT_TROUBLE;
    const struct rg_header *h = t->hdr;
    const struct rg_entry *e = f.exists ? rg_table_find(t, f.dev, f.ino) : NULL;
    struct rg_facts facts = {.rec = rg_entry_load(t, e), .table = RG_TABLE_OK,
                             .mode = (enum rg_mode)h->mode};
    if (facts.rec.writers > 0)
        facts.writer_alive = rg_pid_holds(facts.rec.writer_pid, f.dev, f.ino);
    if (!e && atomic_load(&h->full))
        facts.table = RG_TABLE_FULL;
    struct rg_request req = {RG_OP_OPEN, "check", AT_FDCWD, path, O_WRONLY | O_TRUNC, 0, 0};
    struct rg_decision d = rg_decide(&req, &f, &facts);
    if (d.action == RG_NEED_HASH) {
        hash_of(path, &f);
        d = rg_decide(&req, &f, &facts);
    }
    if (d.action == RG_NEED_SCOPE) {
        f.scope = scope_of(h, path);
        d = rg_decide(&req, &f, &facts);
    }
    char reason[1024];
    struct rg_report r = {&req, path, path, &f, &facts, d};
    if (d.action == RG_WARN || d.action == RG_REFUSE)
        rg_reason_text(reason, sizeof reason, &r, h->capacity, NULL);
    if (!quiet && d.action == RG_ALLOW)
        printf("allowed to write '%s': %s\n", path, why_allowed(&f, &facts));
    else if (!quiet && d.action == RG_WARN)
        printf("allowed to write '%s' (warn mode logs it): %s\n", path, reason);
    else if (!quiet)
        printf("refused to write '%s': %s\n", path, reason);
    return d.action == RG_REFUSE ? RG_EXIT_NO : RG_EXIT_OK;
}

int rg_cmd_check(int argc, char **argv)
{
    static const struct option longs[] = {{"quiet", no_argument, NULL, 'q'},
                                          {NULL, 0, NULL, 0}};
    struct rg_verb v = {"check", usage, "q", longs, NULL};
    bool quiet = false;
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch != 'q')
            return rg_verb_usage_error(&v);
        quiet = true;
    }
    return rg_verb_each_file(&v, argc, argv, &quiet, check_one);
}
