/* Which sessions a prune of the journal keeps whole, whatever their age
 * and the journal's size: those whose table is still there. A table
 * remembers what the journal kept (a file's bytes marked the session's
 * own, an append stamp), and a session going on with it keeps nothing more
 * of those files: had the prune dropped their versions meanwhile, the
 * bytes from before the session would be kept nowhere. */
#ifndef RG_JLIVE_H
#define RG_JLIVE_H

/* Records, in the journal at dir, that the table of session id is at table
 * (an absolute path): one that outlives its run (run --session, --keep)
 * may lie where no listing of the table directories looks. */
void rg_jlive_note(const char *dir, const char *id, const char *table);

/* Calls fn with the id of each session whose table is still there: one
 * running (rg_each_running_id), one left in the table directories, and
 * one at the path rg_jlive_note recorded. A recorded path that no longer
 * holds that session's table is forgotten. An id may come more than once. */
void rg_jlive_each(const char *dir, void (*fn)(const char *id, void *arg), void *arg);

#endif
