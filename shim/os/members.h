/* Who still belongs to a session whose creator is gone: a `readguard run`
 * launcher killed with SIGKILL leaves its children running on the table.
 * Shared by the CLI (`readguard sessions`, `status`) and session creation,
 * which prunes the tables of ended sessions. */
#ifndef RG_MEMBERS_H
#define RG_MEMBERS_H

#include <stdbool.h>
#include <stdint.h>

/* The budget of the waits for processes seen in the middle of an exec,
 * which all the looks given one share (members.c says why a budget): a
 * caller that looks at many tables, or looks more than once, passes the
 * same one to each look. Zeroed to begin; used by one thread at a time. */
struct rg_exec_wait {
    int64_t spent_ns; /* by the monotonic clock: members.c says why */
};

/* Does a process other than this one still belong to the session of the
 * table at path, whose inode is (dev, ino)? One that maps the table (every
 * process of the session that has made a guarded call, and what it
 * forked), or that started with READGUARD_SESSION naming it (one exec'd
 * that has not yet). A scan of /proc: paid only once the creator is gone.
 * True too when /proc cannot be read: a table kept is harmless, one
 * removed under a live tree makes it refuse every write. younger: only
 * processes started after this one count, as this one created the session
 * and every member descends from it; the others are passed over at the cost
 * of reading their stat, the look at a process's maps costing several times
 * that. A process seen in the middle of an exec is waited for out of
 * wait, and a member once that is spent. */
bool rg_session_has_members(const char *path, uint64_t dev, uint64_t ino, bool younger,
                            struct rg_exec_wait *wait);

/* This process's PID namespace, the inode of /proc/self/ns/pid; 0 when
 * /proc cannot tell. A session made in another (a sandbox sharing
 * /dev/shm, `unshare -p`) has processes this one cannot see: its creator
 * looks gone while it runs. */
uint64_t rg_pidns_self(void);

/* Has PID namespace ns (an inode from rg_pidns_self) no process left?
 * Told only from the initial namespace, the one that sees every process:
 * from any other a namespace out of sight may still hold a session's
 * creator, and the answer is false. False too when a process of this user
 * cannot be looked at. */
bool rg_pidns_gone(uint64_t ns);

#endif
