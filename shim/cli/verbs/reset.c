/* readguard reset: forget every read at once. */
#include "cli/verbs.h"
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/pick.h"
static const char usage[] =
    "Usage: readguard reset [--session S]\n"
    "Forget every read the session has recorded, so each file must be read again\n"
    "before it may be written. An agent harness calls this after compacting the\n"
    "agent's context: what the agent no longer remembers, it must read again.\n"
    "\n" RG_SESSION_HELP_LIVE "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0, or 2 if there is no usable session.\n";

int rg_cmd_reset(int argc, char **argv)
{
    struct rg_verb v = {"reset", usage, "", NULL, NULL, false};
    if (rg_verb_getopt(&v, argc, argv) != -1)
        return rg_verb_usage_error(&v);
    if (rg_verb_no_operands(&v, argc, argv) != RG_EXIT_OK)
        return RG_EXIT_TROUBLE;
    struct rg_cli_session s;
    if (rg_pick_session(v.session, &s) < 0)
        return RG_EXIT_TROUBLE;
    rg_table_reset(&s.table);
    rg_drop_session(&s);
    return RG_EXIT_OK;
}
