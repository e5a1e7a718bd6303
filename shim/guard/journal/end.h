/* How a session left each file it changed: the "end" records
 * (core/jrecord.h) by which undo tells a later change by another program
 * from the session's own. readguard run and readguard end write them as
 * they end a session; so does the library in a session's creator that
 * takes the table along as it exits (an agent started with LD_PRELOAD has
 * no launcher to do it). */
#ifndef RG_JEND_H
#define RG_JEND_H

#include <stddef.h>
#include <stdint.h>

#include "guard/ctx.h"
/* Who writes the records, and when: every record says so. */
struct rg_jend_by {
    const char *prog, *call;
    int pid;
    int64_t time_ns;
};

/* Formats the "end" record of the file name in directory at, recorded as
 * abs: its inode, size and times as they are now, or that it is missing.
 * Its length; 0 when it does not fit in cap bytes. */
size_t rg_jend_format(char *out, size_t cap, int at, const char *name, const char *abs,
                      const struct rg_jend_by *by);

/* Appends to the session index at index an "end" record for each path its
 * records name, once each: nothing, and 0, for a session with no index;
 * else 0, or -errno. */
int rg_jend_session(const char *index, const struct rg_jend_by *by);

/* rg_jend_session for c's session, as its creator leaves. */
void rg_jend_close(struct rg_ctx *c);

#endif
