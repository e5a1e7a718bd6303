/* The session log, as a file: where refusals, warnings and marks are
 * appended, one JSON line each (core/report.h formats them). */
#ifndef RG_LOGFILE_H
#define RG_LOGFILE_H

/* Opens the log for appending, creating it 0600 and its missing parents
 * 0700. Returns a descriptor or -errno. */
int rg_log_open(const char *path);

#endif
