/* Claude Code's hook events, as `readguard hook claude-code EVENT` runs
 * them (verbs/hook.c reads the input and picks the event): the session's
 * life (SessionStart, SessionEnd, PreCompact) and the file tools
 * (PreToolUse, PostToolUse). A hook must never stand in Claude Code's way:
 * each reports its own failures on stderr and returns 0. */
#ifndef RG_CLI_HOOK_H
#define RG_CLI_HOOK_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

struct rg_table;

/* The fields of the hook input that readguard uses. */
struct rg_hook_input {
    char session_id[128];
    char cwd[PATH_MAX];
    char source[32];
    char tool[64];
    char path[PATH_MAX];
    char table[PATH_MAX];
    bool joined; /* the table is $READGUARD_SESSION's, not the hook's own */
};

/* Reports a problem and lets Claude Code go on. */
static inline int rg_hook_trouble(const char *fmt, const char *arg)
{
    fputs("readguard: hook: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 0;
}

/* SessionStart: start or join the conversation's session; argv: run's options. */
int rg_hook_session_start(struct rg_hook_input *in, int argc, char **argv);

/* SessionEnd: record how the session left each file it changed. */
int rg_hook_session_end(const struct rg_hook_input *in);

/* PreCompact, and SessionStart after /clear: forget every read. */
int rg_hook_forget_reads(const char *table);

/* A second Claude Code on a conversation owns its table once the first is gone. */
void rg_hook_own_if_orphaned(const struct rg_table *t);

/* PreToolUse (pre) or PostToolUse of a file tool. */
int rg_hook_tool(struct rg_hook_input *in, bool pre);

#endif
