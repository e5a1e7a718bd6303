/* readguard forget: make the session read some files again. */
#include "cli/verbs.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/pick.h"
#include "cli/shown.h"
static const char usage[] =
    "Usage: readguard forget [--session S] FILE...\n"
    "Forget that the session read each FILE, so it must be read again before it\n"
    "may be written. A FILE the session never read is left as it is; a directory\n"
    "is refused ('readguard reset' forgets every read).\n"
    "\n" RG_SESSION_HELP_LIVE "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0, or 2 if there is no usable session or a FILE cannot be examined\n"
    "or is a directory.\n";

static int forget_one(struct rg_table *t, const char *path, void *arg)
{
    struct stat st;
    (void)arg;
    if (stat(path, &st) != 0) {
        rg_err("forget: '%s': %s", rg_shown(path), strerror(errno));
        return RG_EXIT_TROUBLE;
    }
    /* A read is recorded per file: exit 0 here would let a user think the
     * files in it forgotten. */
    if (S_ISDIR(st.st_mode)) {
        rg_err("forget: '%s' is a directory: forget takes files ('readguard reset' forgets "
               "every read)",
               rg_shown(path));
        return RG_EXIT_TROUBLE;
    }
    struct rg_entry *e = rg_table_find(t, st.st_dev, st.st_ino);
    if (e)
        rg_entry_forget(e);
    return RG_EXIT_OK;
}

int rg_cmd_forget(int argc, char **argv)
{
    struct rg_verb v = {"forget", usage, "", NULL, NULL, false};
    if (rg_verb_getopt(&v, argc, argv) != -1)
        return rg_verb_usage_error(&v);
    return rg_verb_each_file(&v, argc, argv, NULL, forget_one);
}
