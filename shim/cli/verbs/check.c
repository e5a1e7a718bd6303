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
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "cli/would.h"
#include "core/content.h"
#include "core/policy.h"
#include "core/report.h"
#include "core/text.h"
#include "guard/readhash.h"
#include "os/procfd.h"
static const char usage[] =
    "Usage: readguard check [--session S] [--quiet] FILE...\n"
    "Say whether the session may overwrite each FILE now, without writing it.\n"
    "A refusal is worded exactly as the shim words it:\n"
    "  refused to write 'FILE': it has not been read in this session. ...\n"
    "\n" RG_SESSION_HELP_LIVE "  -q, --quiet          print nothing; only the exit status answers\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0 if every FILE may be written (in warn mode, always), 1 if a\n"
    "write to some FILE would be refused, 2 if there is no usable session or a FILE\n"
    "cannot be examined, such as one whose directory does not exist, or a directory\n"
    "(a write there fails with ENOENT or EISDIR, which is no refusal).\n";

static int check_one(struct rg_table *t, const char *path, void *arg)
{
    bool quiet = *(const bool *)arg;
    struct rg_would w;
    struct stat st;
    /* As for a missing directory: a write there fails before readguard is
     * asked, so "allowed" would mislead. */
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        rg_err("check: '%s' is a directory: an open of it for writing fails (EISDIR), which "
               "readguard does not refuse",
               rg_shown(path));
        return RG_EXIT_TROUBLE;
    }
    if (!rg_would_write(t, path, "check", &w))
        return RG_EXIT_TROUBLE;
    enum rg_action a = w.decision.action;
    char reason[1024];
    if (a == RG_WARN || a == RG_REFUSE)
        rg_would_reason(t, path, &w, reason, sizeof reason);
    if (!quiet && (a == RG_ALLOW || a == RG_ALLOW_KEPT))
        printf("allowed to write '%s': %s\n", rg_shown(path), rg_would_allowed_why(&w));
    else if (!quiet && a == RG_WARN)
        printf("allowed to write '%s' (warn mode logs it): %s\n", rg_shown(path), reason);
    else if (!quiet)
        printf("refused to write '%s': %s\n", rg_shown(path), reason);
    return a == RG_REFUSE ? RG_EXIT_NO : RG_EXIT_OK;
}

int rg_cmd_check(int argc, char **argv)
{
    static const struct option longs[] = {{"quiet", no_argument, NULL, 'q'}, {NULL, 0, NULL, 0}};
    struct rg_verb v = {"check", usage, "q", longs, NULL, false};
    bool quiet = false;
    int ch;
    while ((ch = rg_verb_getopt(&v, argc, argv)) != -1) {
        if (ch != 'q')
            return rg_verb_usage_error(&v);
        quiet = true;
    }
    return rg_verb_each_file(&v, argc, argv, &quiet, check_one);
}
