/* Standard descriptors 0-2 of a process that has not set its context up
 * (preload/context.h): a regular file written there (`cmd > f`, a
 * configure log) is the session's own write, made without one hooked call,
 * so it is restamped when it is let go of (close, dup2 over it, fclose,
 * exit). Most such processes meet the shim only then, so the table is
 * attached for the restamps alone (once, and kept for the next), with raw
 * system calls: ld.so binds nothing, errno is left alone, no lock is
 * taken. session: the table the process started in ("" when none). */
#ifndef RG_STDFDS_H
#define RG_STDFDS_H

/* Restamps fd (0-2) if it is a regular file open for writing, after
 * flushing stream (the FILE on it, or NULL). */
void rg_std_restamp(const char *session, int fd, void *stream);

/* The same for 0, 1 and 2 at exit, flushing the streams on them. */
void rg_std_restamp_at_exit(const char *session);

#endif
