/* The session log, as a file: where refusals, warnings and marks are
 * appended, one JSON line each (core/report.h formats them). */
#ifndef RG_LOGFILE_H
#define RG_LOGFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Opens the log for appending, creating it 0600; its missing parents are
 * made 0700 only inside readguard's state directory. Returns a descriptor
 * or -errno (-ENOENT for a directory a user named that does not exist). */
int rg_log_open(const char *path);

/* rg_log_open for a file only readguard writes, which is never a symbolic
 * link (nor, with no_links, any directory of its path, nor a file of more
 * than one name, nor anything but a regular file: -ENXIO): a journal index,
 * and a --strict session's log, whose paths were made real when the
 * session started. A tree that plants a link there means readguard's own
 * append to land in a file of the user's that the tree may not write. */
int rg_log_open_in(const char *path, bool no_links);

/* Moves what is at path aside, under a dot name beside it
 * (".aside-PID-NAME"): a symbolic link, a directory or a FIFO a tree put
 * where readguard's own file is to be. 0, or -errno. */
int rg_log_set_aside(const char *path);

/* Makes path's missing parents, 0700, if path is inside readguard's state
 * directory: 0, or the -errno of a parent it could not make; -ENOENT if
 * path is not in that directory. */
int rg_log_dir_make(const char *path);

/* readguard's state directory, where logs and the journal go by default:
 * $XDG_STATE_HOME/readguard, else ~/.local/state/readguard. Its length, or
 * -1 and "" when neither variable is an absolute path or out is too small. */
int rg_state_dir(char *out, size_t cap);

/* Is path inside readguard's state directory? */
bool rg_log_in_state_dir(const char *path);

#endif
