/* readguard hook claude-code EVENT: Claude Code's hooks. They put what the
 * model was shown, and nothing else, into the session table that its Bash
 * tool's shell and commands share: a Read records the file, a Write or Edit
 * of a file the model never read is denied with the shim's own reason, and
 * the tool's own write keeps the file writable. This file reads the input
 * and picks the event; the events are in ../hook/.
 *
 * A hook must never stand in Claude Code's way: its own failures go to
 * stderr and it exits 0, so the tool call goes on as if it were absent. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/hook/hook.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "core/jsonl.h"
#include "core/settings.h"

static const char usage[] =
    "Usage: readguard hook claude-code EVENT [OPTION]... <HOOK_INPUT_JSON\n"
    "Claude Code's hooks (see the settings.json shipped with readguard). EVENT is\n"
    "the hook event, the JSON on stdin is Claude Code's hook input:\n"
    "  SessionStart   start, or join, the session of this conversation, tied to\n"
    "                 the life of Claude Code ($CLAUDE_PID), and write to\n"
    "                 $CLAUDE_ENV_FILE what makes each Bash tool command, and the\n"
    "                 shell that runs it, join it; after /clear, forget every read\n"
    "  PreToolUse     Write, Edit, MultiEdit, NotebookEdit: deny an overwrite the\n"
    "                 shim would refuse, with its reason, which the model is shown;\n"
    "                 keep the old bytes of one it allows in the journal\n"
    "  PostToolUse    Read: record the file as read; Write, Edit, MultiEdit,\n"
    "                 NotebookEdit: record the tool's own write\n"
    "  PreCompact     forget every read: the model must read again to write\n"
    "  SessionEnd     record how the session left each file it changed, so that\n"
    "                 undo tells a later edit from its own once its table is gone\n"
    "\n"
    "SessionStart takes the options of 'readguard run' (--mode, --log, --root ...)\n"
    "for a session it creates; its root is the top of the git work tree holding\n"
    "the project directory (cwd), else that directory, plus any --root given.\n"
    "The session is $READGUARD_SESSION when Claude Code runs in one, else\n"
    "readguard-claude-SESSION_ID in $READGUARD_DIR, $XDG_RUNTIME_DIR or /tmp.\n"
    "Problems are reported on stderr; once an event is named the exit status is 0\n"
    "whatever happens, so that readguard never blocks Claude Code by failing.\n"
    "Without 'claude-code' and an EVENT, hook exits 2 (bad usage).\n";

static char *read_all(FILE *in)
{
    size_t n = 0, cap = 65536;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, in)) > 0;) {
        n += r;
        if (cap - n - 1 == 0) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

static bool field(const char *doc, const char *a, const char *b, char *out, size_t cap)
{
    const char *keys[] = {a, b, NULL};
    return rg_json_lookup(doc, keys, out, cap);
}

/* Claude Code launched inside a session (readguard run -- claude) keeps
 * using it; otherwise each conversation has its own, named after it, so
 * that claude --resume finds the reads it made. */
static bool table_path(struct rg_hook_input *in)
{
    const char *env = getenv(RG_ENV_SESSION);
    in->joined = env && *env;
    if (in->joined)
        return snprintf(in->table, sizeof in->table, "%s", env) < (int)sizeof in->table;
    if (!rg_hook_id_usable(in->session_id))
        return false;
    const char *dir = getenv(RG_ENV_DIR);
    if (!dir || !*dir)
        dir = getenv("XDG_RUNTIME_DIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int n =
        snprintf(in->table, sizeof in->table, "%s/" RG_HOOK_TABLE_PREFIX "%s", dir, in->session_id);
    return n > 0 && n < (int)sizeof in->table;
}

static int session_end(struct rg_hook_input *in, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return rg_hook_session_end(in);
}

static int pre_compact(struct rg_hook_input *in, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return rg_hook_forget_reads(in->table);
}

static int pre_tool_use(struct rg_hook_input *in, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return rg_hook_tool(in, true);
}

static int post_tool_use(struct rg_hook_input *in, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return rg_hook_tool(in, false);
}

/* The one list of the events readguard has a hook for: the dispatch and
 * the messages that name them all come from it. */
static const struct event {
    const char *name;
    int (*run)(struct rg_hook_input *in, int argc, char **argv);
} events[] = {
    {"SessionStart", rg_hook_session_start},
    {"SessionEnd", session_end},
    {"PreToolUse", pre_tool_use},
    {"PostToolUse", post_tool_use},
    {"PreCompact", pre_compact},
};

#define NEVENTS (sizeof events / sizeof *events)

static const struct event *event_named(const char *name)
{
    for (size_t i = 0; i < NEVENTS; i++)
        if (strcmp(name, events[i].name) == 0)
            return &events[i];
    return NULL;
}

/* "A, B or C", as the messages name the events. */
static const char *event_names(char list[128])
{
    size_t len = 0;
    for (size_t i = 0; i < NEVENTS && len < 128; i++)
        len += (size_t)snprintf(list + len, 128 - len, "%s%s",
                                i == 0            ? ""
                                : i + 1 < NEVENTS ? ", "
                                                  : " or ",
                                events[i].name);
    return list;
}

static int claude_code(const char *name, int argc, char **argv)
{
    /* Said before the input is read: a settings.json that names an event
     * readguard has no hook for is a mistake to show, not a bad input. */
    const struct event *event = event_named(name);
    if (!event) {
        char why[256], names[128];
        snprintf(why, sizeof why,
                 "claude-code: unknown event '%s': readguard's hooks are %s; it does nothing", name,
                 event_names(names));
        return rg_hook_trouble("%s", why);
    }
    struct rg_hook_input in = {0};
    char *doc = read_all(stdin);
    if (!doc)
        return rg_hook_trouble("%s", "out of memory reading the hook input");
    /* Said as such: "no usable session_id" sent people looking for a field
     * when the whole input was wrong. Nothing is done, so nothing is blocked. */
    if (!rg_json_is_object(doc)) {
        free(doc);
        return rg_hook_trouble("%s", "the hook input on stdin is not a JSON object: nothing done");
    }
    field(doc, "session_id", NULL, in.session_id, sizeof in.session_id);
    field(doc, "cwd", NULL, in.cwd, sizeof in.cwd);
    field(doc, "source", NULL, in.source, sizeof in.source);
    field(doc, "tool_name", NULL, in.tool, sizeof in.tool);
    if (!field(doc, "tool_input", "file_path", in.path, sizeof in.path))
        field(doc, "tool_input", "notebook_path", in.path, sizeof in.path);
    free(doc);
    if (!table_path(&in))
        return rg_hook_trouble("%s", "no usable session_id in the hook input");
    return event->run(&in, argc, argv);
}

static bool is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int rg_cmd_hook(int argc, char **argv)
{
    /* "hook claude-code --help" is where a user who read the settings.json
     * asks: taken as an event, it was an unknown one, and no usage. */
    if ((argc == 2 && is_help(argv[1])) ||
        (argc == 3 && strcmp(argv[1], "claude-code") == 0 && is_help(argv[2]))) {
        fputs(usage, stdout);
        return RG_EXIT_OK;
    }
    if (argc < 3 || strcmp(argv[1], "claude-code") != 0) {
        if (argc < 2) {
            fputs(usage, stderr);
            return RG_EXIT_TROUBLE;
        }
        if (argv[1][0] == '-')
            rg_err("hook: unrecognized option '%s'", rg_shown(argv[1]));
        else if (strcmp(argv[1], "claude-code") != 0)
            rg_err("hook: unknown integration '%s' (readguard has one: claude-code)", argv[1]);
        else
            rg_err("hook: claude-code: no event given (%s)", event_names((char[128]){0}));
        fputs("Try 'readguard hook --help'.\n", stderr);
        return RG_EXIT_TROUBLE;
    }
    return claude_code(argv[2], argc - 3, argv + 3);
}
