/* Finding the user's session tables: by name in the table directories
 * ($READGUARD_DIR if set, else /dev/shm, $XDG_RUNTIME_DIR and /tmp), and
 * by what live processes map, wherever the table lives. */
#ifndef RG_TABLES_H
#define RG_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/jrecord.h"

/* Is pid a live process? EPERM counts: a pid of another user's is alive. */
bool rg_pid_alive(int32_t pid);

/* Calls fn with the id (as the journal names sessions) of each of this
 * user's sessions that is running: in the table directories, or mapped by
 * a live process wherever its table is (a named session's). An id may
 * come more than once. */
void rg_each_running_id(void (*fn)(const char *id, void *arg), void *arg);

/* The session the table at path belongs to, as the journal names it
 * (id), and its owner, from the header's leading fields; nothing is
 * mapped. False when path is not a table of this user's. */
bool rg_table_session(const char *path, char id[RG_JOURNAL_ID_MAX], int32_t *owner);

/* Calls fn for each file in the table directories named like one of this
 * user's session tables: $READGUARD_DIR if set, else /dev/shm,
 * $XDG_RUNTIME_DIR and /tmp. */
void rg_each_session_file(void (*fn)(const char *path, void *arg), void *arg);

/* The same for the Claude Code hook's tables, readguard-claude-ID (named
 * by the agent's session, verbs/hook.c): this user's files of that name. */
void rg_each_hook_table(void (*fn)(const char *path, void *arg), void *arg);

/* Both: every table of this user's in the table directories. */
void rg_each_table(void (*fn)(const char *path, void *arg), void *arg);

#endif
