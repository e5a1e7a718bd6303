/* A session's settings as the user writes them: the environment variables
 * that carry them, and the parsers of their values. Pure, so the shim, which
 * reads them from its environment, and the CLI, which reads them from its
 * options, accept exactly the same words. */
#ifndef RG_SETTINGS_H
#define RG_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/table.h"
#define RG_ENV_SESSION "READGUARD_SESSION"
#define RG_ENV_ROOTS "READGUARD_ROOTS"
#define RG_ENV_MODE "READGUARD_MODE"
#define RG_ENV_LOG "READGUARD_LOG"
/* The log of the session a process joins, set by whoever starts it, for a
 * process that finds no usable table (whose header names the log) to log
 * its refusals in. Not READGUARD_LOG: that one is the log of a session yet
 * to start (a nested run's, a preloaded process's without a session), and
 * would send theirs to this session's log. */
#define RG_ENV_SESSION_LOG "READGUARD_SESSION_LOG"
/* The id of that session, set beside it, so that such a process's lines
 * name the session as every other line of the log does ('readguard log
 * --session ID' finds an ended session's lines by it). It labels lines and
 * nothing else: a value that is not an id is left out. */
#define RG_ENV_SESSION_ID "READGUARD_SESSION_ID"
#define RG_ENV_DIR "READGUARD_DIR"
#define RG_ENV_CAPACITY "READGUARD_CAPACITY"
#define RG_ENV_OWNER "READGUARD_OWNER"
/* Supervised mode: map the trampoline (os/sys.h). */
#define RG_ENV_TRAMPOLINE "READGUARD_TRAMPOLINE"
#define RG_ENV_JOURNAL_MAX_FILE "READGUARD_JOURNAL_MAX_FILE"
#define RG_ENV_JOURNAL_MAX "READGUARD_JOURNAL_MAX"
#define RG_ENV_JOURNAL_DAYS "READGUARD_JOURNAL_DAYS"

/* Is name one rg_session_create gives a table: prefix ("readguard-<uid>-")
 * and 16 hex digits? Not one being made (NAME.new-XXXX), nor a log. */
bool rg_table_name(const char *name, const char *prefix);

/* The Claude Code hook's table is this prefix and the agent's session id,
 * in the table directories: the name says whose conversation it serves. */
#define RG_HOOK_TABLE_PREFIX "readguard-claude-"

/* Can id name a hook's table: letters, digits, '-' and '_', nothing that
 * makes a path or a table being made (NAME.new-XXXX) of it? */
bool rg_hook_id_usable(const char *id);

/* Is name a hook's table: the prefix and a usable id? */
bool rg_hook_table_name(const char *name);

/* Parses a mode name; returns -1 for anything else. */
int rg_mode_parse(const char *s);
const char *rg_mode_name(enum rg_mode m);

/* Parses a capacity ("100000", "1M"); 0 when invalid or out of range. */
uint32_t rg_capacity_parse(const char *s);

/* Parses a size in bytes with an optional K, M or G suffix (powers of 1024);
 * -1 when invalid. */
int64_t rg_size_parse(const char *s);

#endif
