/* The file tools: a Write or Edit the shim would refuse is denied with its
 * reason, one it allows has its old bytes kept first; a Read records the
 * file, and the tool's own write keeps it writable. */
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/hook/hook.h"
#include "cli/journal/store.h"
#include "cli/json/out.h"
#include "cli/shown.h"
#include "cli/would.h"
#include "core/jrecord.h"
#include "core/namehint.h"
#include "core/table.h"
#include "core/text.h"
#include "guard/readhash.h"
#include "os/clock.h"
#include "os/session.h"

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
static void keep_old_bytes(const struct rg_table *t, const struct rg_hook_input *in,
                           struct rg_would *w)
{
    const struct rg_header *h = t->hdr;
    char abs[PATH_MAX], id[RG_JOURNAL_ID_MAX];
    if ((h->flags & RG_POLICY_NO_JOURNAL) || !h->journal_dir[0] || !w->file.exists ||
        !w->file.regular || own_bytes(w) || !realpath(in->path, abs) ||
        rg_would_scope(t, abs) == RG_SCOPE_FREE || rg_path_under(abs, h->journal_dir))
        return;
    if (w->file.size > h->journal_max_file) {
        rg_hook_trouble("'%s' is larger than the journal keeps: its old bytes are not kept",
                        rg_shown(abs));
        return;
    }
    rg_journal_id(id, h->created_ns, h->creator_pid);
    int r = rg_jstore_keep(h->journal_dir, id, abs, "write", NULL);
    if (r < 0 && w->decision.action == RG_ALLOW_KEPT)
        rg_would_unkept(w, RG_UNKEPT_JOURNAL, -r);
    else if (r < 0)
        rg_hook_trouble("cannot keep the old bytes of '%s' in the journal", rg_shown(abs));
}

static int pre_tool_use(const struct rg_hook_input *in, struct rg_table *t)
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
static int post_tool_use(const struct rg_hook_input *in, struct rg_table *t, bool own_write)
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
        rg_hook_trouble("the session table is full: '%s' is not recorded", rg_shown(in->path));
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

int rg_hook_tool(struct rg_hook_input *in, bool pre)
{
    bool read = strcmp(in->tool, "Read") == 0;
    if (!is_write_tool(in->tool) && (pre || !read))
        return 0;
    if (!in->path[0] || in->path[0] != '/')
        return rg_hook_trouble("no absolute file path in the %s tool's input", in->tool);
    struct rg_table t;
    const char *why = rg_session_attach(in->table, &t);
    if (why)
        return rg_hook_trouble("no session (did the SessionStart hook run?): %s", why);
    rg_hook_own_if_orphaned(&t);
    if (pre)
        pre_tool_use(in, &t);
    else
        post_tool_use(in, &t, !read);
    rg_session_detach(&t);
    return 0;
}
