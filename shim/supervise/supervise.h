/* Supervised mode: a seccomp filter in the command's process tree sends the
 * guarded system calls (open, rename, truncate...) to readguard itself,
 * which carries them out in the caller's name with the same guard, table
 * and policy as the preload shim. It sees programs the shim cannot: static
 * binaries, Go, Bun, raw syscalls, and processes started without
 * LD_PRELOAD. */
#ifndef RG_SUPERVISE_H
#define RG_SUPERVISE_H

#include <limits.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "guard/ctx.h"
/* How much of the tree readguard trusts. */
enum rg_sv_level {
    RG_SV_HYBRID, /* --supervise: the shim's trampoline is let through */
    RG_SV_STRICT, /* --strict: every guarded call goes to the supervisor */
};

/* --- filter.c: the BPF program ------------------------------------------ */
#define RG_SV_FILTER_MAX 128
struct sock_filter;
/* Writes the filter into out (RG_SV_FILTER_MAX slots); returns its length. */
size_t rg_sv_filter_build(struct sock_filter *out, enum rg_sv_level level);
/* Is nr one of the calls that change a process's ids (set*id, setgroups),
 * which the filter sends to the supervisor to be noted and let through? */
bool rg_sv_changes_ids(long nr);

/* The namespaces a --strict tree may not make (see ns.c). */
#define RG_SV_NS_FLAGS (CLONE_NEWUSER | CLONE_NEWNS)
/* The calls a --strict tree may not make at all, refused with the reason
 * (ns.c): mounts, which root makes in readguard's own mount namespace (a
 * second name for a guarded file outside the roots, a detached tree no
 * root reaches), and what has the kernel write a file by name itself. */
/* clang-format off */
#define RG_SV_REFUSED_CALLS(X)                                                  \
    X(setns) X(chroot) X(mount) X(umount2) X(pivot_root) X(move_mount)         \
    X(open_tree) X(open_tree_attr) X(fsopen) X(fsmount) X(fspick)              \
    X(mount_setattr) X(acct) X(swapon)
/* clang-format on */

/* --- launch.c: starting the command under the filter ---------------------- */
/* In the forked child: installs the filter, sends the listener to the parent
 * over sock, and returns 0; or returns -1 after sending the reason. */
int rg_sv_child_install(int sock, enum rg_sv_level level);
/* In the parent: receives the listener, or -1 with the child's reason in
 * why (a kernel that lacks a feature, say). */
int rg_sv_parent_receive(int sock, char *why, size_t cap);

/* --- target.c: the trapped process as the supervisor sees it -------------- */
struct rg_sv_target {
    int32_t tid;  /* the trapped thread, as in the notification */
    int32_t tgid; /* 0 until loaded (rg_sv_need_target) */
    mode_t umask;
};
/* The umask a target is taken to have where its /proc/TID/status shows
 * none, and before it is loaded: the usual one. */
#define RG_SV_UMASK_UNKNOWN 022
/* t as thread tid: its thread group and umask (RG_SV_UMASK_UNKNOWN where
 * the kernel does not show it), from /proc/TID/status. 0, or -errno
 * (-ESRCH: the thread is gone). */
int rg_sv_target_load(struct rg_sv_target *t, int32_t tid);
/* /proc/TID/status, as much as fits in cap bytes, NUL-terminated: 0, or
 * -errno (-ESRCH when it reads empty: the thread is gone). */
int rg_sv_read_status(int32_t tid, char *buf, size_t cap);
/* Copies a NUL-terminated string from the target's memory. 0, -EFAULT or
 * -ENAMETOOLONG. */
int rg_sv_read_string(const struct rg_sv_target *t, uint64_t addr, char *out, size_t cap);
int rg_sv_read_mem(const struct rg_sv_target *t, uint64_t addr, void *out, size_t len);
/* A directory descriptor, in the supervisor, equivalent to the target's
 * dirfd for resolving path (its cwd for AT_FDCWD). Returns AT_FDCWD for an
 * absolute path, a descriptor the caller closes, or -errno. */
int rg_sv_dirfd(const struct rg_sv_target *t, int dirfd, const char *path);
/* Rewrites the paths that name "the calling process" (/proc/self,
 * /proc/thread-self, /dev/fd/N, /dev/stdin...) to the target's /proc entries.
 * Pure. Returns true when it rewrote: the result may then cross /proc magic
 * links on purpose (they are the target's own). */
bool rg_sv_rewrite_self(const char *path, int32_t tgid, int32_t tid, char *out, size_t cap);
/* The process a path under /proc/PID names (/proc/PID or below it), or 0. */
int32_t rg_sv_proc_pid(const char *path);
/* Does path go through the /proc entries of a process of the tree (one
 * that descends from readguard, which is the tree's reaper), not
 * readguard's own? The tree may cross those magic links: the caller could
 * itself, and they lead nowhere readguard's own would. */
bool rg_sv_tree_proc(const char *path);
/* How to resolve an absolute path that may cross the tree's /proc magic
 * links (rewritten from /proc/self, or rg_sv_tree_proc): only the link it
 * begins with, as the caller named it. Crossed by any other (a "root" or
 * "cwd" link, "..", a symbolic link, on to readguard's own /proc/PID/fd/N),
 * the path would reach readguard's descriptors. So the link is opened alone
 * and the rest resolved from it with RESOLVE_NO_MAGICLINKS. Returns the
 * directory to resolve *path from, AT_FDCWD or a descriptor the caller
 * closes (then *path is the rest), or -errno; *resolve: the flags. */
int rg_sv_cross(const char **path, uint64_t *resolve);

/* --- jseal.c: the journal, out of a --strict tree's reach ----------------- */
struct rg_sv_call;
struct rg_request;
struct stat;
/* What a --strict tree may not change by a name or a descriptor (jseal.c):
 * the journal or the session log, or a directory that holds one; and
 * another session's table (tables.c). Always RG_SV_UNSEALED under
 * --supervise. */
enum rg_sv_sealed { RG_SV_UNSEALED, RG_SV_JOURNAL, RG_SV_LOG, RG_SV_TABLE };
/* Of name in dirfd (an anchored name, or an absolute path). */
enum rg_sv_sealed rg_sv_sealed_at(const struct rg_ctx *c, int dirfd, const char *name);
/* The same, for several names judged in one call: names in one directory
 * (one dirfd) share one reading of its path, kept in seen (jseal.c). */
struct rg_sv_jdir {
    int fd; /* the directory read last, -1 before any */
    bool named;
    char path[PATH_MAX];
};
#define RG_SV_JDIR_INIT                      \
    {                                        \
        .fd = -1, .named = false, .path = "" \
    }
enum rg_sv_sealed rg_sv_sealed_at_seen(const struct rg_ctx *c, struct rg_sv_jdir *seen, int dirfd,
                                       const char *name);
/* The same, of the file open on fd. */
enum rg_sv_sealed rg_sv_sealed_fd(const struct rg_ctx *c, int fd);
/* --- tables.c: the user's other sessions' tables, sealed under --strict -- */
/* Is the file open on fd, which st describes, another session's table that
 * the tree did not make? False under --supervise. */
bool rg_sv_other_table_fd(const struct rg_ctx *c, int fd, const struct stat *st);
/* The same of name in dirfd (an anchored name), not followed. */
bool rg_sv_other_table_at(const struct rg_ctx *c, int dirfd, const char *name);
/* Refuses req on what (st: what the name holds, or NULL), as the guard
 * refuses a call on the sealed table: the line and the log entry say why.
 * Returns -EACCES. */
int rg_sv_sealed_refuse(struct rg_sv_call *call, const struct rg_request *req,
                        const struct stat *st, enum rg_sv_sealed what);

/* --- creds.c: acting with the caller's rights ----------------------------- */
#define RG_SV_GROUPS_MAX 256
struct rg_sv_creds {
    bool switched;
    bool capped;   /* this thread's capabilities lowered to the caller's */
    uint64_t caps; /* and readguard's own, to give back */
    uid_t uid;
    gid_t gid;
    int ngroups;
    gid_t groups[RG_SV_GROUPS_MAX];
};
/* readguard's own effective ids, read once when the handlers start: they
 * never change (a handler changes only its file-system ids, and gives them
 * back), and asking for them cost two system calls per trapped call. */
struct rg_sv_ids {
    uid_t uid;
    gid_t gid;
    /* No process of the tree can ever have other ids than these (see
     * rg_sv_ids_own): no need to look at each caller's. */
    bool whole_tree;
    /* Its real, effective and saved ids are one uid and one gid. */
    bool uniform;
    /* Its effective capabilities, the most a caller can have that counts:
     * a caller with fewer (a root process that dropped some) gets them
     * lowered to its own for the call. */
    uint64_t caps;
    /* A process of the tree may have other ids now (a call that changes
     * them, filter.c): from then on each caller's are looked at. */
    _Atomic bool moved;
};
/* readguard's own ids, and whether they are the tree's for good. */
void rg_sv_ids_own(struct rg_sv_ids *own);
/* Notes a call that changes ids (rg_sv_changes_ids), made by a process
 * that still has readguard's ids, before it runs. */
void rg_sv_ids_note(struct rg_sv_ids *own, long nr, const uint64_t args[6]);
/* Gives this thread the target's file-system ids and groups, if they are not
 * readguard's own (own). 0, or -errno when readguard cannot act as that user. */
int rg_sv_creds_enter(const struct rg_sv_target *t, const struct rg_sv_ids *own,
                      struct rg_sv_creds *c);
void rg_sv_creds_leave(struct rg_sv_creds *c);

/* --- held.c: write descriptors handed to the tree -------------------------- */
/* The supervisor keeps a copy of each write descriptor it hands out, counted
 * as a writer for the target, and restamps and releases it once the target
 * no longer holds the file: it cannot see the target's close. */
struct rg_sv_held;
struct rg_sv_held *rg_sv_held_new(struct rg_ctx *c);
/* there: the descriptor's number in the holder. append: an append
 * --allow-append let through unread, no writer: its release moves the
 * append stamp on (core/table.h), and restamps nothing. */
void rg_sv_held_add(struct rg_sv_held *h, int fd, uint64_t dev, uint64_t ino, int32_t holder,
                    int there, bool append);
/* there for a copy held before the holder has the descriptor: held until
 * rg_sv_held_placed says under which number it got it (-1: it did not), or
 * until the holder exits. */
#define RG_SV_HELD_PENDING (-2)
void rg_sv_held_placed(struct rg_sv_held *h, int fd, int there);
/* Releases every copy whose holder let go of its file; run before a
 * supervised write is judged, and by the reaper thread. Returns how many
 * copies are still held. */
size_t rg_sv_held_settle(struct rg_sv_held *h);
/* Blocks until a holder exits, a copy is added, or also (a descriptor of
 * the caller's) is readable: while anything is held, at most every few
 * milliseconds. Says whether also was readable. */
bool rg_sv_held_wait(struct rg_sv_held *h, int also);

/* --- pages.c: the table's pages, kept when the file cannot back them ------ */
/* Keeps a copy of t's header and turns a SIGBUS on t's mapping into a page
 * of the supervisor's own (see pages.c). 0 or -1. */
int rg_sv_pages_keep(const struct rg_table *t);

/* --- notify.c: the notification loop -------------------------------------- */
struct rg_sv_call {
    int listener;
    enum rg_sv_level level;
    struct rg_sv_held *held;
    struct seccomp_notif *req;
    struct rg_ctx *ctx; /* this handler thread's own context */
    struct rg_sv_target target;
};
/* A supervisor started: what rg_sv_finish needs. */
struct rg_sv {
    struct rg_sv_held *held;
    struct rg_sv_turn *turn;
};
/* Starts the handler threads on the listener, plus the reaper, and fills
 * sv. Returns 0 or -errno. The threads live until the process exits. */
int rg_sv_start(int listener, enum rg_sv_level level, const struct rg_ctx *proto, int nthreads,
                struct rg_sv *sv);
/* The tree has exited: waits for the calls still being carried out (a
 * handler answers before it records the read or holds the copy of the
 * write it answered), for RG_SV_FINISH_MS at most (a call stalled on a hung
 * file system), then settles every copy still held, as the reaper would a
 * moment later: the run may end, and the process with it, before either. */
void rg_sv_finish(const struct rg_sv *sv);
/* Starts fn(arg) on a detached thread of readguard's: 0, or -errno. */
int rg_sv_spawn(void *(*fn)(void *), void *arg);

/* Fills in call->target's thread group and umask (from /proc/TID/status)
 * if not done yet. 0 or -errno. */
int rg_sv_need_target(struct rg_sv_call *call);
/* Answers: a result (>= 0) or -errno. */
void rg_sv_reply(const struct rg_sv_call *call, long result);
void rg_sv_continue(const struct rg_sv_call *call);
/* Installs fd in the target and answers with its number there. send: do
 * both at once; otherwise the answer is left to rg_sv_reply. Returns the
 * target's descriptor or -errno (the call is then still unanswered). */
int rg_sv_addfd(const struct rg_sv_call *call, int fd, bool cloexec, bool send);
/* Is the notification still pending (the target alive, the tid its own)? */
bool rg_sv_still_valid(const struct rg_sv_call *call);

/* --- ns.c: what a --strict tree may not do to its view of paths ----------- */
/* If the call is one the filter sends only to be refused (a new user or
 * mount namespace, setns, chroot), refuses it with EPERM and says why on the
 * caller's stderr. False for any other call. */
bool rg_sv_refuse_ns(struct rg_sv_call *call);

/* --- reach.c: what a --strict tree may not do to processes outside it ---- */
/* Is pid a process (or thread) of the tree, not readguard itself? */
bool rg_sv_in_tree(int32_t pid);
/* Says on the caller's stderr that what reached outside the tree. */
void rg_sv_say_outside(struct rg_sv_call *call, const char *what);
/* If the call is a ptrace attach or process_vm_writev (sent by the filter
 * under --strict only), lets it run on a process of the tree and refuses it
 * with EPERM, and the reason, on any other. False for any other call. */
bool rg_sv_reach(struct rg_sv_call *call);

/* --- turn.c: which handler thread waits on the listener ------------------- */
struct rg_sv_turn;
/* The turn, free; NULL if it cannot be had. */
struct rg_sv_turn *rg_sv_turn_new(void);
/* Waits for the turn, or passes it on (the tree has exited). */
void rg_sv_turn_take(struct rg_sv_turn *t);
void rg_sv_turn_give(struct rg_sv_turn *t);
/* Around each call the holder carries out; me: its number, from 1. End
 * says whether it still holds the turn: false if the call stalled and the
 * watchdog passed the turn on. */
void rg_sv_turn_begin(struct rg_sv_turn *t, uint32_t me);
bool rg_sv_turn_end(struct rg_sv_turn *t, uint32_t me);
/* Waits until no call is between its begin and its end, for ms at most.
 * False if one still is. */
bool rg_sv_turn_drain(struct rg_sv_turn *t, int ms);
/* The timerfd the watchdog's thread waits on: readable once a call may
 * have gone on RG_SV_TURN_STALL_NS. */
int rg_sv_turn_timer(const struct rg_sv_turn *t);
/* The watchdog's look, made by one thread once the timer is readable:
 * passes the turn on from a call that has gone on that long, or sets the
 * timer for when the call going would have. */
void rg_sv_turn_watch(struct rg_sv_turn *t);

/* --- fifo.c ---------------------------------------------------------------- */
/* If path is a FIFO, takes the call over: a thread of its own opens it,
 * waiting for the other end as the target asked, and answers. probe (our
 * non-blocking descriptor on it, or -1) is closed once that is done. */
bool rg_sv_fifo_wait(const struct rg_sv_call *call, int dfd, const char *path, int flags,
                     uint64_t resolve, int probe);

/* --- open.c, paths.c: the guarded calls, decoded (core/syscall.h) ---------- */
struct rg_syscall;
/* Lets the opens that need neither a check nor a record go on to the
 * kernel, in the caller's own name: O_PATH and read-only directory opens,
 * and under --supervise a read-only open of a path outside every root (see
 * README.md, "Reads outside the roots"). Runs before anything else is
 * looked up for the call. True when it answered. */
bool rg_sv_open_continues(const struct rg_sv_call *call, const struct rg_syscall *sc);
/* Paths that may name the caller's own descriptors or /proc entries:
 * opens only the caller, never the supervisor, can make anything of (the
 * full path records them as the files they reach). */
bool rg_sv_names_self(const char *path);
void rg_sv_open(struct rg_sv_call *call, const struct rg_syscall *sc);
void rg_sv_rename(struct rg_sv_call *call, const struct rg_syscall *sc);
void rg_sv_truncate(struct rg_sv_call *call, const struct rg_syscall *sc);
void rg_sv_unlink(struct rg_sv_call *call, const struct rg_syscall *sc);
void rg_sv_link(struct rg_sv_call *call, const struct rg_syscall *sc);
/* --- meta.c: chmod, chown, utimensat; setxattr, removexattr ------------------ */
void rg_sv_meta(struct rg_sv_call *call, const struct rg_syscall *sc);
void rg_sv_xattr(struct rg_sv_call *call, const struct rg_syscall *sc);

#endif
