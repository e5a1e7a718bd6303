/* readguard diff: how a file changed since the version undo would restore. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/pick.h"
#include "cli/journal/store.h"
#include "cli/journal/symlink.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "core/jrecord.h"
#include "core/text.h"

static const char diff_usage[] =
    "Usage: readguard diff [--session S] FILE...\n"
    "Show, as a unified diff (diff -u), how each FILE changed since the version\n"
    "'readguard undo FILE' would restore: the kept version is the old side, FILE\n"
    "as it is now the new side (/dev/null when FILE is gone, as git labels it).\n"
    "\n" RG_SESSION_HELP ":\n"
    "                       the version from before S (default: before the\n"
    "                       session that last changed FILE)\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status, as diff(1)'s: 0 if no FILE differs, 1 if one does, 2 if one has\n"
    "no kept version to compare it with (as diff(1) of a missing file), on bad\n"
    "usage or an error (such as a kept version that is damaged, which undo refuses\n"
    "too).\n";

/* Does file need quoting in a diff header: a control character, a quote
 * or backslash (which quoting would make ambiguous), or bytes that are not
 * UTF-8 (a terminal or a patch reader would take them as something else)? */
static bool needs_quotes(const char *file)
{
    for (const unsigned char *c = (const unsigned char *)file; *c; c++)
        if (*c < 0x20 || *c == 0x7f || *c == '"' || *c == '\\')
            return true;
    return !rg_utf8_valid(file);
}

/* The C escape git and diff(1) write c as inside quotes, or NULL. */
static const char *c_escape(unsigned char c)
{
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\t': return "\\t";
    case '\n': return "\\n";
    case '\r': return "\\r";
    default: return NULL;
    }
}

/* A name as diff -u heads it: as git and diff(1) quote a name that needs
 * it, in double quotes with C escapes (octal for bytes that are not UTF-8,
 * as git's core.quotePath), so that each of the --- and +++ lines stays one
 * line, in one encoding, and GNU patch reads the name back. */
static const char *label_name(const char *file, char *out, size_t cap)
{
    if (!needs_quotes(file))
        return file;
    bool utf8 = rg_utf8_valid(file);
    size_t n = 0;
    out[n++] = '"';
    for (const unsigned char *c = (const unsigned char *)file; *c && n + 6 < cap; c++) {
        if (c_escape(*c))
            n += (size_t)snprintf(out + n, cap - n, "%s", c_escape(*c));
        else if (*c < 0x20 || *c == 0x7f || (*c >= 0x80 && !utf8))
            n += (size_t)snprintf(out + n, cap - n, "\\%03o", *c);
        else
            out[n++] = (char)*c;
    }
    snprintf(out + n, cap - n, "\"");
    return out;
}

/* Tells why the version kept as from cannot be shown (intact: what
 * rg_jstore_intact answered), in the words undo uses for it. */
static void tell_unusable(const char *dir, const struct rg_jrec *from, const char *file, int intact)
{
    char target[RG_JOURNAL_OBJECT_MAX];
    if (intact == 0 && rg_jobject_is_linked(from->object))
        rg_err("diff: '%s': %s; undo refuses it too", rg_shown(file),
               rg_jstore_content_name(dir, from, target) ? RG_JSTORE_WRITTEN_OR_DAMAGED
                                                         : RG_JSTORE_WRITTEN);
    else if (intact == 0)
        rg_err("diff: '%s': " RG_JSTORE_DAMAGED "; undo refuses it too", rg_shown(file));
    else
        rg_err("diff: '%s': the kept version cannot be read: %s", rg_shown(file), strerror(errno));
}

/* A kept symbolic link against what abs holds now, in one line: diff(1)
 * would follow both, and read what they point at (maybe out of the roots,
 * maybe nothing) as their content. */
static int diff_symlink(const char *dir, const struct rg_jrec *r, const char *abs, const char *file)
{
    char old[PATH_MAX], now[PATH_MAX];
    ssize_t k = rg_jsym_target(dir, r->object, old, sizeof old, NULL);
    if (k < 0) {
        rg_err("diff: '%s': the kept symbolic link cannot be read: %s", rg_shown(file),
               strerror((int)-k));
        return RG_EXIT_TROUBLE;
    }
    struct stat st;
    ssize_t n = lstat(abs, &st) != 0 || !S_ISLNK(st.st_mode) ? -1 : readlink(abs, now, sizeof now);
    if (n >= 0 && (size_t)n < sizeof now)
        now[n] = '\0';
    printf("symbolic link '%s': before %s %s -> '%s', now ", rg_shown(file), rg_jrec_who(r),
           r->session, rg_shown(old));
    if (n >= 0 && (size_t)n < sizeof now)
        printf("-> '%s'\n", rg_shown(now));
    else
        printf("%s\n", lstat(abs, &st) != 0 ? "removed" : "not a symbolic link");
    return n == k && strcmp(old, now) == 0 ? RG_EXIT_OK : RG_EXIT_NO;
}

/* What abs holds now, open for diff(1) to read (-1: nothing, diff reads
 * /dev/null), or -2 once said: what is not a regular file is not read.
 * Opened here, not named to diff(1): it would follow a symbolic link put
 * at abs, and read what it points at (maybe out of the roots) as the
 * file's content; the name checked would be another's by its open. Not
 * close-on-exec: diff(1) reads it as /dev/fd/N. */
static int open_now(const struct rg_jrec *r, const char *abs, const char *file)
{
    char to[PATH_MAX];
    struct stat st;
    int fd = open(abs, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        return fd;
    int e = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    if (e == ENOENT)
        return -1;
    ssize_t n = e == ELOOP ? readlink(abs, to, sizeof to - 1) : -1;
    printf("'%s': before %s %s a file, now ", rg_shown(file), rg_jrec_who(r), r->session);
    if (n >= 0) {
        to[n] = '\0';
        printf("a symbolic link to '%s'\n", rg_shown(to));
    } else if (e == 0 || e == ELOOP) {
        printf("not a regular file\n");
    } else {
        printf("unreadable: %s\n", strerror(e));
    }
    return -2;
}

/* diff(1) does the diffing: what it prints is what people already read. */
static int diff_one(const struct rg_jlist *l, const char *dir, const char *only, const char *file)
{
    char abs[PATH_MAX], obj[PATH_MAX + 80], old_label[4 * PATH_MAX + 128], now[32];
    char name[4 * PATH_MAX + 2];
    int rc;
    const struct rg_jrec *first = rg_journal_version_of(l, "diff", only, file, abs, &rc);
    /* Nothing to compare with is trouble, as diff(1) of a missing file:
     * exit 1 must mean "differs", or a script reads a file as changed. */
    if (!first)
        return RG_EXIT_TROUBLE;
    /* As undo does: a copy of a kept inode as it was kept, if there is one. */
    struct rg_jrec from = *first;
    const struct rg_jrec *copy = rg_jlist_copy_of(l, first);
    if (copy)
        from.object = copy->object;
    if (rg_jrec_is_symlink(&from))
        return diff_symlink(dir, &from, abs, file);
    int intact = rg_jstore_intact(dir, &from);
    if (intact <= 0) {
        tell_unusable(dir, &from, file, intact);
        return RG_EXIT_TROUBLE;
    }
    int fd = open_now(first, abs, file);
    if (fd == -2)
        return RG_EXIT_NO;
    rg_jstore_object(obj, sizeof obj, dir, from.object);
    snprintf(old_label, sizeof old_label, "%s (before %s %s)", label_name(file, name, sizeof name),
             rg_jrec_who(first), first->session);
    snprintf(now, sizeof now, fd >= 0 ? "/dev/fd/%d" : "/dev/null", fd);
    /* A removal, as git shows one; name is free again once old_label has it. */
    const char *new_label = fd >= 0 ? label_name(file, name, sizeof name) : now;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execlp("diff", "diff", "-u", "--label", old_label, "--label", new_label, obj, now,
               (char *)NULL);
        rg_err("diff: cannot run diff(1): %s", strerror(errno));
        _exit(RG_EXIT_TROUBLE);
    }
    if (fd >= 0)
        close(fd);
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return RG_EXIT_TROUBLE;
    return WEXITSTATUS(status) > RG_EXIT_TROUBLE ? RG_EXIT_TROUBLE : WEXITSTATUS(status);
}

int rg_cmd_diff(int argc, char **argv)
{
    struct rg_verb v = {"diff", diff_usage, NULL, NULL, NULL, false};
    if (rg_verb_getopt(&v, argc, argv) != -1)
        return rg_verb_usage_error(&v);
    if (optind >= argc) {
        rg_err("diff: no file given");
        return rg_verb_usage_error(&v);
    }
    char dir[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    if (rg_journal_pick(v.session, dir, sizeof dir, id, sizeof id) < 0)
        return RG_EXIT_TROUBLE;
    struct rg_jlist l = {0};
    int r = rg_jlist_load(dir, NULL, &l);
    if (r < 0) {
        rg_err("diff: cannot read the journal '%s': %s", rg_shown(dir), strerror(-r));
        return RG_EXIT_TROUBLE;
    }
    int rc = RG_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        int one = diff_one(&l, dir, id[0] ? id : NULL, argv[i]);
        rc = one > rc ? one : rc;
    }
    rg_jlist_free(&l);
    return rc;
}
