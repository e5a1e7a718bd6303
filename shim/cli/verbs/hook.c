/* readguard hook claude-code EVENT: Claude Code's hooks. They put what the
 * model was shown, and nothing else, into the session table that its Bash
 * tool's shell and commands share: a Read records the file, a Write or Edit
 * of a file the model never read is denied with the shim's own reason, and
 * the tool's own write keeps the file writable.
 *
 * A hook must never stand in Claude Code's way: its own failures go to
 * stderr and it exits 0, so the tool call goes on as if it were absent. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/journal/store.h"
#include "cli/json/out.h"
#include "cli/launch/ccenv.h"
#include "cli/launch/named.h"
#include "cli/launch/shim_path.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "cli/would.h"
#include "core/content.h"
#include "core/jrecord.h"
#include "core/jsonl.h"
#include "core/namehint.h"
#include "core/settings.h"
#include "core/table.h"
#include "core/text.h"
#include "guard/readhash.h"
#include "os/clock.h"
#include "os/gitroot.h"
#include "os/session.h"
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
    "\n"
    "SessionStart takes the options of 'readguard run' (--mode, --log, --root ...)\n"
    "for a session it creates; its root is the top of the git work tree holding\n"
    "the project directory (cwd), else that directory, plus any --root given.\n"
    "The session is $READGUARD_SESSION when Claude Code runs in one, else\n"
    "readguard-claude-SESSION_ID in $READGUARD_DIR, $XDG_RUNTIME_DIR or /tmp.\n"
    "Problems are reported on stderr; once an event is named the exit status is 0\n"
    "whatever happens, so that readguard never blocks Claude Code by failing.\n"
    "Without 'claude-code' and an EVENT, hook exits 2 (bad usage).\n";

/* The fields of the hook input that readguard uses. */
struct hook_input {
    char session_id[128];
    char cwd[PATH_MAX];
    char source[32];
    char tool[64];
    char path[PATH_MAX];
    char table[PATH_MAX];
    bool joined; /* the table is $READGUARD_SESSION's, not the hook's own */
};

/* Reports a problem and lets Claude Code go on. */
static int trouble(const char *fmt, const char *arg)
{
    fputs("readguard: hook: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 0;
}

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
static bool table_path(struct hook_input *in)
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

static int reset(const char *table)
{
    struct rg_table t;
    const char *why = rg_session_attach(table, &t);
    if (why)
        return errno == ENOENT ? 0 : trouble("cannot reset the session: %s", why);
    rg_table_reset(&t);
    rg_session_detach(&t);
    return 0;
}

/* Claude Code, as its hooks are told: CLAUDE_PID; 0 when not. */
static int32_t claude_pid(void)
{
    const char *pid = getenv("CLAUDE_PID");
    char *end;
    long v = pid ? strtol(pid, &end, 10) : 0;
    return pid && !*end && v > 0 && v <= INT32_MAX ? (int32_t)v : 0;
}

/* A conversation resumed in a second Claude Code while the first runs
 * shares the table; once the first exits, the one still running must own
 * it, or a prune would take it away under its next Write. */
static void own_if_orphaned(const struct rg_table *t)
{
    int32_t me = claude_pid();
    if (me && !rg_session_owner_alive(t->hdr) && rg_pid_alive(me))
        atomic_store(&t->hdr->owner_pid, me);
}

/* The tables of conversations whose Claude Code is gone pile up where the
 * hook makes them (80 MiB each, sparse): the start of the next one is
 * where they go, as a run's start removes ended sessions' tables. After
 * this one's is opened: a resumed conversation's own table, whose owner
 * is gone until it is joined, is kept. */
static void prune_beside(const char *table)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", table);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    slash[slash == dir] = '\0';
    rg_session_prune(dir);
}

static int session_start(struct hook_input *in, int argc, char **argv)
{
    const char *env_file = getenv("CLAUDE_ENV_FILE");
    if (!env_file || !*env_file)
        return trouble("%s", "CLAUDE_ENV_FILE is not set: this Claude Code cannot pass variables "
                             "to its Bash tool; launch it with 'readguard run -- claude' instead");
    /* Each hook runs in a short-lived sh; Claude Code itself is CLAUDE_PID. */
    int32_t owner = claude_pid();
    if (!owner) {
        trouble("%s", "CLAUDE_PID is not set: the session is tied to this hook's parent");
        owner = getppid();
    }
    char shim[PATH_MAX], table[PATH_MAX];
    if (rg_preload_path(shim, sizeof shim) < 0)
        return trouble("%s", "cannot find libreadguard.so next to readguard or in ../lib/");
    /* The project directory's git work tree, as readguard run would take
     * from there: the model's git commands change all of it. */
    char cwd[PATH_MAX], root[PATH_MAX];
    char *dir = in->cwd[0] ? in->cwd : ".";
    if (realpath(dir, cwd)) {
        rg_default_root(cwd, root, sizeof root);
        dir = root;
    }
    char *args[64] = {"hook", "--root", dir};
    if (argc > 60)
        return trouble("%s", "too many options");
    memcpy(args + 3, argv, (size_t)argc * sizeof *argv);
    const char *named = NULL;
    const struct rg_settings *s = rg_run_settings(argc + 3, args, &named, NULL);
    /* Mapped, a resumed conversation's table is this hook's, for another
     * start's prune, until its owner is Claude Code again. */
    struct rg_table held;
    bool hold = !rg_session_attach(in->table, &held);
    int r = s ? rg_session_open_named(in->table, s, owner, table, sizeof table) : -1;
    if (r >= 0 && !in->joined)
        prune_beside(table);
    if (hold)
        rg_session_detach(&held);
    if (r < 0)
        return trouble("could not start the session '%s'", rg_shown(in->table));
    if (strcmp(in->source, "clear") == 0 || strcmp(in->source, "compact") == 0)
        reset(table);
    if (rg_ccenv_write(env_file, table, shim) != 0)
        return trouble("cannot write $CLAUDE_ENV_FILE '%s'", rg_shown(env_file));
    /* Claude Code adds SessionStart's output to the model's context. */
    printf("Files under %s are guarded by readguard. Writing an existing file that you have "
           "not read in this session (with the Read tool or a shell command), or that changed "
           "since you read it, is refused: a shell command fails with 'Permission denied' and a "
           "'readguard: refused' line, a Write or Edit is denied with the reason. Read the file, "
           "then retry.\n",
           dir);
    return 0;
}

static bool is_write_tool(const char *tool)
{
    return strcmp(tool, "Write") == 0 || strcmp(tool, "Edit") == 0 ||
           strcmp(tool, "MultiEdit") == 0 || strcmp(tool, "NotebookEdit") == 0;
}

/* Are the file's bytes the session's own write (PostToolUse restamped them),
 * already kept before its first change? */
static bool own_bytes(const struct rg_would *w)
{
    const struct rg_record *r = &w->facts.rec;
    return r->found && w->own_write && r->mtime_ns == w->file.mtime_ns && r->size == w->file.size;
}

/* An allowed overwrite is final for the file, as the shim's is: keep its
 * old bytes in the session's journal first, once (not over the tool's own
 * earlier write), so that readguard undo can bring them back. A journaled
 * file is written unread only once they are kept: where they cannot be,
 * the answer is asked again, as the shim asks it. */
static void keep_old_bytes(const struct rg_table *t, const struct hook_input *in,
                           struct rg_would *w)
{
    const struct rg_header *h = t->hdr;
    char abs[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    if ((h->flags & RG_POLICY_NO_JOURNAL) || !h->journal_dir[0] || !w->file.exists ||
        !w->file.regular || own_bytes(w) || !realpath(in->path, abs) ||
        rg_would_scope(t, abs) == RG_SCOPE_FREE || rg_path_under(abs, h->journal_dir))
        return;
    if (w->file.size > h->journal_max_file) {
        trouble("'%s' is larger than the journal keeps: its old bytes are not kept", rg_shown(abs));
        return;
    }
    rg_journal_id(id, h->created_ns, h->creator_pid);
    int r = rg_jstore_keep(h->journal_dir, id, abs, "write", NULL);
    if (r < 0 && w->decision.action == RG_ALLOW_KEPT)
        rg_would_unkept(w, RG_UNKEPT_JOURNAL, -r);
    else if (r < 0)
        trouble("cannot keep the old bytes of '%s' in the journal", rg_shown(abs));
}

static int pre_tool_use(const struct hook_input *in, struct rg_table *t)
{
    struct rg_would w;
    if (!rg_would_write(t, in->path, in->tool, &w))
        return 0;
    if (w.decision.action != RG_REFUSE)
        keep_old_bytes(t, in, &w);
    if (w.decision.action != RG_REFUSE && w.decision.action != RG_WARN)
        return 0;
    rg_would_log(t, in->path, "claude", &w);
    if (w.decision.action == RG_WARN)
        return 0;
    char reason[1024], text[PATH_MAX + 1200];
    rg_would_reason(t, in->path, &w, reason, sizeof reason);
    snprintf(text, sizeof text, "readguard: refused to write '%s': %s", in->path, reason);
    bool first = true;
    fputs("{\"hookSpecificOutput\":{", stdout);
    rg_jmember_str(stdout, &first, "hookEventName", "PreToolUse");
    rg_jmember_str(stdout, &first, "permissionDecision", "deny");
    rg_jmember_str(stdout, &first, "permissionDecisionReason", text);
    fputs("}}\n", stdout);
    return 0;
}

/* What the model was shown of the file (Read), or what the tool wrote
 * (own_write), is now what the session knows the file to be. A Read with
 * offset and limit counts as a read of the whole file, as `head` does in the
 * shell: the model chose how much to look at. */
static int post_tool_use(const struct hook_input *in, struct rg_table *t, bool own_write)
{
    int fd = open(in->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return 0; /* gone again, or a directory or device: nothing to record */
    }
    struct rg_entry *e = rg_table_find_or_add(t, st.st_dev, st.st_ino);
    struct rg_stamp now = {
        .mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec,
        .ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec,
        .size = st.st_size,
    };
    if (!e)
        trouble("the session table is full: '%s' is not recorded", rg_shown(in->path));
    else if (own_write)
        rg_entry_stamp(t, e, &now, true, rg_now_ns());
    else if (rg_stamp_read(t, e, &now, fd))
        atomic_fetch_add(&t->hdr->reads, 1);
    else
        rg_entry_reread(t, e, &now); /* the model looked: a scan of it now counts */
    /* The name the model read it by (core/namehint.h). */
    if (e && !own_write)
        rg_table_name_note(t, rg_name_key(in->path), e);
    close(fd);
    return 0;
}

static int tool_event(struct hook_input *in, bool pre)
{
    bool read = strcmp(in->tool, "Read") == 0;
    if (!is_write_tool(in->tool) && (pre || !read))
        return 0;
    if (!in->path[0] || in->path[0] != '/')
        return trouble("no absolute file path in the %s tool's input", in->tool);
    struct rg_table t;
    const char *why = rg_session_attach(in->table, &t);
    if (why)
        return trouble("no session (did the SessionStart hook run?): %s", why);
    own_if_orphaned(&t);
    if (pre)
        pre_tool_use(in, &t);
    else
        post_tool_use(in, &t, !read);
    rg_session_detach(&t);
    return 0;
}

#define EVENTS "SessionStart, PreToolUse, PostToolUse or PreCompact"

static bool known_event(const char *event)
{
    static const char *const known[] = {"SessionStart", "PreToolUse", "PostToolUse", "PreCompact"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(event, known[i]) == 0)
            return true;
    return false;
}

static int claude_code(const char *event, int argc, char **argv)
{
    /* Said before the input is read: a settings.json that names an event
     * readguard has no hook for is a mistake to show, not a bad input. */
    if (!known_event(event))
        return trouble("claude-code: unknown event '%s': readguard's hooks are " EVENTS
                       "; it does nothing",
                       event);
    struct hook_input in = {0};
    char *doc = read_all(stdin);
    if (!doc)
        return trouble("%s", "out of memory reading the hook input");
    /* Said as such: "no usable session_id" sent people looking for a field
     * when the whole input was wrong. Nothing is done, so nothing is blocked. */
    if (!rg_json_is_object(doc)) {
        free(doc);
        return trouble("%s", "the hook input on stdin is not a JSON object: nothing done");
    }
    field(doc, "session_id", NULL, in.session_id, sizeof in.session_id);
    field(doc, "cwd", NULL, in.cwd, sizeof in.cwd);
    field(doc, "source", NULL, in.source, sizeof in.source);
    field(doc, "tool_name", NULL, in.tool, sizeof in.tool);
    if (!field(doc, "tool_input", "file_path", in.path, sizeof in.path))
        field(doc, "tool_input", "notebook_path", in.path, sizeof in.path);
    free(doc);
    if (!table_path(&in))
        return trouble("%s", "no usable session_id in the hook input");
    if (strcmp(event, "SessionStart") == 0)
        return session_start(&in, argc, argv);
    if (strcmp(event, "PreCompact") == 0)
        return reset(in.table);
    return tool_event(&in, strcmp(event, "PreToolUse") == 0); /* or PostToolUse */
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
            rg_err("hook: claude-code: no event given (%s)", EVENTS);
        fputs("Try 'readguard hook --help'.\n", stderr);
        return RG_EXIT_TROUBLE;
    }
    return claude_code(argv[2], argc - 3, argv + 3);
}
