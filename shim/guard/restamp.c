#include "guard/restamp.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "core/hot.h"
#include "guard/ask.h"
#include "guard/fdmap.h"
#include "guard/streams.h"
#include "os/clock.h"
#include "os/sys.h"
/* Does st show what the restamp's last look, was, saw? Only a second look
 * asks (settle_again). */
static bool looked_the_same(const struct rg_stamp *was, const struct stat *st)
{
    struct rg_stamp now = rg_stamp_of(st);
    return was->mtime_ns == now.mtime_ns && was->ctime_ns == now.ctime_ns && was->size == now.size;
}

/* Looks a restamp takes at most: a sibling rewriting the file again and
 * again (O_TRUNC, then write) can tear three in a row (t0500, traced). */
#define RESTAMP_LOOKS 8

/* Where a restamp looks at the file: through the descriptor that wrote it,
 * or, after a rename, by the name it now has (fd then its directory). */
struct own_look {
    int fd;
    const char *path;
    uint64_t dev, ino;
};

static inline __attribute__((always_inline)) bool look_own(const struct own_look *l,
                                                           struct stat *st)
{
    int r =
        l->path ? rg_sys_fstatat(l->fd, l->path, st, AT_SYMLINK_NOFOLLOW) : rg_sys_fstat(l->fd, st);
    return r == 0 && st->st_ino == l->ino && st->st_dev == l->dev;
}

/* Stamps now, one look's, as the session's own unless e has it so already;
 * true when the look raced another stamp (before: the count of stamps
 * loaded before the look). */
static inline __attribute__((always_inline)) bool
stamp_look(struct rg_ctx *c, struct rg_entry *e, const struct rg_stamp *now, uint32_t before)
{
    uint32_t ours = 0;
    if (!rg_entry_own_as_is(&c->table, e, now)) {
        /* A copy for the call: now itself then stays in registers on the
         * close that stamps nothing. */
        struct rg_stamp mine = *now;
        ours = rg_entry_stamp_clock(&c->table, e, &mine, true, rg_now_ns) ? 2 : 0;
    }
    uint32_t after = rg_stamps_of(atomic_load_explicit(&e->hash_stamps, memory_order_acquire));
    return (before & 1u) || after - before != ours;
}

/* settle_own's looks after the first, which saw first: out of line, as
 * only a sibling writing beside us, or a stamp racing ours, asks for one.
 * The first look's stat, not its stamp: the stamp then stays in registers
 * on the close that makes no second look. */
__attribute__((noinline, cold)) static void settle_again(struct rg_ctx *c, struct rg_entry *e,
                                                         struct own_look l, uint32_t mine,
                                                         const struct stat *first, bool raced)
{
    struct rg_stamp now = rg_stamp_of(first);
    struct stat st;
    for (int looks = 1; looks < RESTAMP_LOOKS; looks++) {
        uint32_t before = rg_stamps_of(atomic_load_explicit(&e->hash_stamps, memory_order_acquire));
        if (!look_own(&l, &st))
            break;
        if (!raced && looked_the_same(&now, &st))
            break;
        now = rg_stamp_of(&st);
        raced = stamp_look(c, e, &now, before);
        if (!raced && rg_entry_writers(e) <= mine)
            break;
    }
}

/* Records the file as l finds it as the session's own, even over a stamp a
 * sibling's read recorded first: it makes the bytes the session's own. A
 * sibling's write() sets the times before the size, so a look in the middle
 * of it pairs the new times with the old size; stamped after the sibling's
 * own restamp, that look would stand (same ctime), and the session refuse
 * the file as changed until a read a tick later. A second look that
 * disagrees is stamped over it; only a sibling counted as writing (beyond
 * the caller's own count, mine) can tear one, so alone, one look does. A
 * stamp of another that began after our look and landed before ours (a
 * sibling's restamp, or a signal handler's on this very thread) leaves
 * ours, older, over it: the count of stamps moved by more than ours tells,
 * and the file is looked at again. The first look is inline, its stamp in
 * registers: it is the only one nearly every close makes. */
static inline __attribute__((always_inline)) void settle_own(struct rg_ctx *c, struct rg_entry *e,
                                                             struct own_look l, uint32_t mine)
{
    struct stat st;
    uint32_t before = rg_stamps_of(atomic_load_explicit(&e->hash_stamps, memory_order_acquire));
    if (!look_own(&l, &st))
        return;
    struct rg_stamp now = rg_stamp_of(&st);
    bool raced = stamp_look(c, e, &now, before);
    if (!raced && rg_entry_writers(e) <= mine)
        return;
    settle_again(c, e, l, mine, &st, raced);
}

/* pid let go of a descriptor it appended through to the file st
 * describes: if that is the file it last kept, what its appends made of it
 * is what it left (ctx's append_look). */
static void append_left(struct rg_ctx *c, const struct stat *st, int32_t pid)
{
    if (atomic_load_explicit(&c->append_ino, memory_order_relaxed) == st->st_ino &&
        atomic_load_explicit(&c->append_dev, memory_order_relaxed) == st->st_dev &&
        atomic_load_explicit(&c->append_pid, memory_order_relaxed) == pid)
        atomic_store_explicit(&c->append_look, rg_append_look(st), memory_order_relaxed);
}

/* An append --allow-append let through is let go of: its bytes, on top of
 * what the journal kept, move the append stamp on (core/table.h). Never a
 * restamp: the file stays unread. */
static __attribute__((noinline, cold)) void append_let_go(struct rg_ctx *c, int fd,
                                                          const struct rg_fdslot *s, int32_t me)
{
    struct stat st;
    uint64_t ino = atomic_load(&s->ino);
    if (rg_sys_fstat(fd, &st) != 0 || st.st_ino != ino || st.st_dev != s->dev)
        return;
    struct rg_entry *e = rg_entry_of_write(c, s->dev, ino, false);
    struct rg_stamp now = rg_stamp_of(&st);
    append_left(c, &st, me ? me : rg_ctx_pid(c));
    if (e)
        rg_entry_append_end(e, &now, me ? me : rg_ctx_pid(c));
}

/* The session's own write is done: what the file looks like now is what the
 * session knows it to be. Inline, for the close of every allowed write. */
static inline __attribute__((always_inline)) void
restamp_as(struct rg_ctx *c, int fd, const struct rg_fdslot *s, bool release, int32_t me)
{
    if (__builtin_expect(s->opener < 0, 0)) { /* a stand-in or an unread append: no writer */
        if (s->opener == RG_OPENER_APPEND)
            append_let_go(c, fd, s, me);
        return;
    }
    struct own_look l = {fd, NULL, s->dev, atomic_load(&s->ino)};
    struct rg_entry *e = rg_entry_of_write(c, l.dev, l.ino, true);
    if (!e)
        return;
    bool counted = release && s->opener && s->opener == (me ? me : rg_ctx_pid(c));
    settle_own(c, e, l, counted);
    if (counted)
        rg_entry_writer_close(e);
}

/* A rename moves a read as the read it was: the same reader (a scan stays
 * a scan), time and hash, for the bytes are the same. Stamped as the
 * session's own write, the bytes would be taken for the session's, and the
 * journal would keep nothing before their first change (`cat f; mv f g;
 * rm g` lost f), and a scanner's rename would unlock the file for all. A
 * sibling waits for this stamp (the rename is counted as an act on e), so
 * one look does. */
static void carry_read(struct rg_ctx *c, struct rg_entry *e, const struct rg_record *was,
                       const struct own_look *l)
{
    struct stat st;
    if (!look_own(l, &st))
        return;
    struct rg_stamp now = rg_stamp_of(&st);
    now.reader = was->reader;
    now.hash = was->hash;
    rg_entry_stamp(&c->table, e, &now, false, was->read_ns);
}

void rg_restamp_renamed(struct rg_ctx *c, struct rg_entry *e, const struct rg_record *was,
                        int dirfd, const char *path, uint64_t dev, uint64_t ino)
{
    struct own_look l = {dirfd, path, dev, ino};
    if (was->written)
        settle_own(c, e, l, 1);
    else
        carry_read(c, e, was, &l);
}

static inline __attribute__((always_inline)) void restamp(struct rg_ctx *c, int fd,
                                                          const struct rg_fdslot *s, bool release)
{
    restamp_as(c, fd, s, release, 0);
}

static void restamp_taken(struct rg_ctx *c, int fd, struct rg_fdslot *s)
{
    restamp(c, fd, s, true);
}

RG_START_TEXT void rg_restamp_written(struct rg_table *t, int fd, int fl)
{
    struct stat st;
    if (rg_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    struct rg_file f = rg_file_of(&st);
    struct rg_entry *e = rg_table_find(t, f.dev, f.ino);
    struct rg_record rec = rg_entry_load(t, e);
    struct rg_stamp now = rg_stamp_of(&st);
    bool own = rec.written || rec.writers > 0;
    now.reader = own ? 0 : rec.reader;
    if (e && (rec.found || rec.writers > 0))
        rg_entry_stamp(t, e, &now, own, own ? rg_now_ns_raw() : rec.read_ns);
    /* `cmd >> f` with --allow-append: the shell's child opened f for this
     * process, which appended and now lets it go. Only pid's own append
     * stamp moves on, so the descriptor is its own (exec keeps the pid). */
    else if (e && (fl & O_APPEND))
        rg_entry_append_end(e, &now, (int32_t)rg_sys_getpid());
}

/* Descriptors 0-2 are often the session's writes too (`cmd > file`), opened
 * by a parent shell: restamp them if the session already knows the file.
 * Opened in the session, the open kept the old bytes and marked them the
 * session's own (or counts a writer): they stay its own. Opened before it
 * (`readguard run -- CMD >> file`), nothing was kept: the file stays the
 * read it was, as of now, or the journal would take the bytes before the
 * session's next change for its own and keep nothing of them. */
static void restamp_inherited(struct rg_ctx *c, int fd)
{
    int fl = c->table_state != RG_TABLE_BROKEN ? rg_sys_getfl(fd) : -1;
    if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY)
        rg_restamp_written(&c->table, fd, fl);
}

/* Is c's memory this process's own (me)? Not in a vfork child, which
 * shares its parent's: the parent still has the descriptors the child
 * closes, and their slots must stay for its own close to restamp and
 * uncount them. A forked child learns its pid at its first such close (a
 * vfork child of it that closes first makes it think so of itself too: its
 * closes then only restamp, and exit or exec uncounts, the safe way round;
 * so does a child of _Fork, which runs no fork handlers). */
static bool map_is_mine(struct rg_ctx *c, int32_t me)
{
    int32_t pid = 0;
    if (atomic_compare_exchange_strong_explicit(&c->map_pid, &pid, me, memory_order_relaxed,
                                                memory_order_relaxed))
        return true;
    return pid == me;
}

/* Inline in both of its callers below. */
static inline __attribute__((always_inline)) void note_close(struct rg_ctx *c, int fd)
{
    struct rg_fdslot s;
    if (rg_fd_peek(c, fd, &s)) {
        int32_t me = rg_ctx_pid(c);
        /* What the process itself opened is its own to let go of, even
         * in its parent's memory. */
        if (c->actor || s.opener == me || map_is_mine(c, me)) {
            if (rg_fd_take_peeked(c, fd, &s))
                restamp_as(c, fd, &s, true, me);
        } else {
            restamp_as(c, fd, &s, false, me);
        }
    } else if (fd >= 0 && fd <= 2) /* coreutils fclose(stdout) before exit */
        restamp_inherited(c, fd);
}

void rg_note_close(struct rg_ctx *c, int fd) { note_close(c, fd); }

/* No errno saved: a restamp's steps are raw system calls, the clock and
 * memory, and what below them can move errno keeps it itself (a stamp's
 * nap, the clock's first lookup: guard/calls.c, rg_record_read_at). A
 * saved errno was 7 instructions of every tracked close. */
int rg_close_noted(struct rg_ctx *c, int fd)
{
    note_close(c, fd);
    long r = rg_sys_close(fd);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    return (int)r;
}

void rg_note_dup(struct rg_ctx *c, int oldfd, int newfd)
{
    struct rg_fdslot s;
    if (oldfd == newfd)
        return;
    rg_note_close(c, newfd);
    if (!rg_fd_peek(c, oldfd, &s))
        return;
    if (s.opener < 0) { /* a stand-in or an unread append: its copy is the same */
        rg_fd_track(c, newfd, s.dev, atomic_load(&s.ino), s.opener, NULL);
        return;
    }
    /* A copy is a writer of its own: `cmd >> f` opens f, dup2s it onto 1 and
     * closes the original before writing a byte. */
    struct rg_file f = {.dev = s.dev, .ino = atomic_load(&s.ino)};
    struct rg_entry *e = rg_entry_for(c, &f, true);
    int32_t pid = rg_ctx_pid(c);
    if (e)
        rg_entry_writer_open(e, pid);
    rg_fd_track(c, newfd, f.dev, f.ino, pid, NULL);
}

void rg_note_close_range(struct rg_ctx *c, int first, int last)
{
    rg_fd_take_each(c, first, last, restamp_taken);
}

/* Will exec close fd? A descriptor gone already counts, as its slot is
 * stale either way. A raw call: a forked child binds no fcntl for it. */
RG_START_TEXT static bool exec_closes(int fd)
{
    long r = rg_sys3(SYS_fcntl, fd, F_GETFD, 0);
    return r < 0 || (r & FD_CLOEXEC);
}

RG_START_TEXT int rg_exec_first_closed(struct rg_ctx *c)
{
    int end = rg_fd_slots_used(c);
    for (int fd = 0; fd < end; fd++) {
        struct rg_fdslot s;
        if (rg_fd_peek(c, fd, &s) && exec_closes(fd))
            return fd;
    }
    return -1;
}

void rg_note_exec(struct rg_ctx *c, int first)
{
    int end = rg_fd_slots_used(c);
    int32_t me = rg_ctx_pid(c);
    for (int fd = first; fd < end; fd++) {
        struct rg_fdslot s;
        if (!rg_fd_peek(c, fd, &s) || !exec_closes(fd))
            continue;
        /* In a vfork child the map is the parent's: only the process that
         * counted a writer (never a vfork child) may uncount it. */
        restamp(c, fd, &s, s.opener == me);
        if (s.opener == me)
            rg_fd_track(c, fd, s.dev, atomic_load(&s.ino), 0, s.stream);
    }
}

static void restamp_at_exit(struct rg_ctx *c, int fd, struct rg_fdslot *s)
{
    rg_flush_pending(s->stream);
    restamp(c, fd, s, true);
}

void rg_restamp_at_exit(struct rg_ctx *c)
{
    if (c->table_state == RG_TABLE_BROKEN)
        return;
    rg_fd_take_each(c, 0, 0x7fffffff, restamp_at_exit);
    rg_flush_std_pending();
    for (int fd = 0; fd <= 2; fd++)
        restamp_inherited(c, fd);
}
