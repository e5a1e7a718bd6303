/* The session table: one file, mapped MAP_SHARED by every process of a
 * session, that remembers which inodes the session has read and what they
 * looked like then.
 *
 * Layout: a fixed header (identity, settings, counters), an open-addressing
 * index of 32-bit slots, a dense array of entries, and the names reads came
 * by (rg_table_name_note). The index holds
 * "entry number + 1" (0 = empty); entries are claimed by one bounded
 * compare-and-swap on a counter and published into the index by another, only
 * after their key is written. So a reader never sees a half-built key, and a
 * process killed at any instruction leaves at worst one unused entry behind:
 * there is no lock to die holding. Dense entries also mean the file's resident
 * size grows with the number of tracked files, not with the capacity. */
#ifndef RG_TABLE_H
#define RG_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RG_MAGIC "RDGUARD\x01"
#define RG_TABLE_VERSION 16u
#define RG_HEADER_SIZE 32768u
#define RG_LOG_PATH_MAX 4096u
#define RG_ROOTS_MAX 8192u
#define RG_IGNORES_MAX 12288u
#define RG_DEFAULT_CAPACITY (1u << 20)
#define RG_MIN_CAPACITY 16u
#define RG_MAX_CAPACITY (1u << 26)
#define RG_MAX_PROBE 256u
#define RG_UNGUARDED_SLOTS 128u
#define RG_OUTPUT_SLOTS 16u
/* Entries are backed by the table's file system a chunk at a time, ahead of
 * the first write to them (rg_table.back): 1024 entries, 64 KiB. One call
 * per 1024 new files is lost in the cost of recording them (an fstat and
 * an index probe each), and a session holds at most 64 KiB it has not used
 * yet; a megabyte would let a table of a small --capacity hold all its room
 * at once, and a page would be a call every 64 files. */
#define RG_BACK_CHUNK 1024u
/* The index and the names are backed a page at a time too, each page
 * before its first touch: a lookup touches a random page of each, and at
 * creation backing all 16 MiB of them (at the default capacity) cost
 * 6 ms of fallocate, 3 ms more of unlink, and that much /dev/shm for every
 * live session, most of it never used. 4 KiB, the smallest page a Linux
 * port has: a session takes what it touches, as the sparse file did. */
#define RG_PAGE_SHIFT 12u
#define RG_PAGE_SIZE (1u << RG_PAGE_SHIFT)
#define RG_INDEX_PAGE_SHIFT (RG_PAGE_SHIFT - 2u) /* 1024 slots of 4 bytes */
#define RG_NAMES_PAGE_SHIFT (RG_PAGE_SHIFT - 3u) /* 512 of 8 bytes */

/* An entry's gen carries, in its top bit, whether the stamp came from the
 * session's own write (a restamp) rather than from a read, or the journal
 * kept the bytes of that stamp: either way, the journal need not keep them. */
#define RG_GEN_WRITE 0x80000000u
#define RG_GEN_MASK 0x7fffffffu
/* An entry's reader: the process that made its last read, and whether that
 * read was part of a scan (scan.h). 0: a read nobody owns, which counts for
 * the whole session like a view (readguard mark, a restamp after a write). */
#define RG_READER_SCAN 0x80000000u
#define RG_READER_PID_MASK 0x003fffffu

/* Scan detection (scan.h): a process that reads more than scan_files
 * distinct files within scan_window_ns is scanning while it does. */
#define RG_DEFAULT_SCAN_FILES 8u
#define RG_DEFAULT_SCAN_WINDOW_NS 1000000000LL
#define RG_SCAN_FILES_MAX 63u /* the per-process ring holds one more */
#define RG_SCAN_WINDOW_MAX_NS 3600000000000LL
/* The programs that scanned, for refusals to name: slot pid % RG_SCANNERS. */
#define RG_SCANNERS 128u

/* A generous bound on file timestamp granularity (a jiffy is 1-10 ms). */
#define RG_TICK_NS 50000000LL

enum rg_mode { RG_MODE_ENFORCE = 0, RG_MODE_WARN = 1 };

/* Policy knobs of a session (rg_header.flags). */
#define RG_POLICY_ALLOW_APPEND 0x1u       /* O_APPEND without O_TRUNC needs no read */
#define RG_POLICY_GUARD_UNLINK 0x2u       /* removing an unread or stale file is a write */
#define RG_POLICY_NO_DEFAULT_IGNORES 0x4u /* the built-in ignore rules were left out */
#define RG_POLICY_NO_JOURNAL 0x8u         /* --no-journal: keep no old bytes (guard/journal/) */
#define RG_POLICY_KNOWN 0xfu

/* One tracked inode. dev is 32 bits because Linux encodes st_dev in 32 bits
 * (new_encode_dev); a larger value is refused at record time, not truncated.
 * gen says which "generation" of reads the stamp belongs to: a reset bumps the
 * header's generation and every older stamp stops counting at once. */
struct rg_entry {
    uint64_t ino;
    uint32_t dev;
    _Atomic uint32_t gen; /* 0: never recorded or forgotten; see RG_GEN_WRITE */
    _Atomic int64_t mtime_ns;
    _Atomic int64_t size;
    _Atomic int64_t ctime_ns; /* orders stamps: users cannot set ctime back */
    _Atomic int64_t read_ns;  /* wall clock of the last record */
    _Atomic uint32_t writing; /* RG_WRITING_*: write fds the session holds open on
                                 it, and the last process that opened one */
    _Atomic uint32_t reader;  /* RG_READER_*: who read it, and how */
    /* The hash of the stamped bytes (rg_content_hash(), 0: none) in the high
     * half, the stamps count (+2 by every full stamp, odd while one is
     * written) in the low: one word, so that a hash is put by the same
     * compare-and-swap that checks no other stamp came meanwhile. Apart, a
     * re-read's hash stored after a stamper took the entry over from it
     * (preempted mid-store) landed on the newer stamp, vouching for bytes
     * the file no longer had. */
    _Atomic uint64_t hash_stamps;
};

static inline uint32_t rg_stamps_of(uint64_t hash_stamps) { return (uint32_t)hash_stamps; }
static inline uint32_t rg_hash_of(uint64_t hash_stamps) { return (uint32_t)(hash_stamps >> 32); }
static inline uint64_t rg_hash_stamps(uint32_t hash, uint32_t stamps)
{
    return (uint64_t)hash << 32 | stamps;
}

/* writing packs a pid (Linux pids fit in 22 bits) with a count that
 * saturates; a count that runs out early can only make the session refuse
 * its own write, never let another's through. */
#define RG_WRITING_PID_BITS 22u
#define RG_WRITING_PID_MASK ((1u << RG_WRITING_PID_BITS) - 1)
#define RG_WRITING_MAX (UINT32_MAX >> RG_WRITING_PID_BITS)

/* The header's full flag. It only moves up: the first process to find the
 * table full warns, and a table full and warned of is not full anew. */
enum rg_full {
    RG_FULL_NOT,    /* room left */
    RG_FULL,        /* a read found no room: no entry added */
    RG_FULL_WARNED, /* and a process has said so on its stderr (guard/log.c) */
};

struct rg_header {
    char magic[8];
    uint32_t version;
    uint32_t header_size;
    uint64_t file_size;
    uint32_t entry_size;
    uint32_t capacity;    /* entries */
    uint32_t index_slots; /* power of two, at least 2 * capacity */
    uint32_t uid;
    /* The process that made the session: with created_ns, its id
     * (rg_journal_id), which a session keeps all its life. Both lead the
     * header in every version, so a table of another version is named. */
    int32_t creator_pid;
    uint32_t mode; /* enum rg_mode */
    int64_t created_ns;
    uint32_t nroots;
    uint32_t flags;      /* RG_POLICY_* */
    int64_t read_ttl_ns; /* a read older than this stops counting; 0: never */
    uint32_t nignores;
    uint32_t ignores_len;
    uint32_t scan_files; /* 0: every read is a view (no scan detection) */
    /* The process whose life keeps the session running: its creator until
     * a later `run --session` takes a kept session over from one gone.
     * Apart from creator_pid, so that a take-over never renames the
     * session (its journal, log lines and undo are found by id). */
    _Atomic int32_t owner_pid;
    int64_t scan_window_ns;
    char log_path[RG_LOG_PATH_MAX];
    char roots[RG_ROOTS_MAX];          /* nroots absolute paths, each NUL-ended */
    char ignores[RG_IGNORES_MAX];      /* the ignore rules, packed as ignore.h says */
    char journal_dir[RG_LOG_PATH_MAX]; /* where old bytes are kept (guard/journal/); "": nowhere */
    int64_t journal_max_file;          /* a larger file is not kept, but logged as unsaved */
    /* The creator's PID namespace (the inode of /proc/self/ns/pid; 0:
     * unknown, a table of before it was kept). A session in another sees
     * none of its processes, so cannot tell it ended. In the padding
     * before the shared part: no offset moves. */
    uint64_t creator_pidns;
    /* Bits in the page map (rg_table.pages): pages of the index, then of
     * the names. Fixed by the capacity; kept to be checked at attach. */
    uint32_t pages;

    /* Shared, mutable: kept off the settings' cache lines. */
    _Alignas(64) _Atomic uint32_t used;
    _Atomic uint32_t generation;
    _Atomic uint32_t full; /* enum rg_full */
    /* Entries whose pages the file system has been made to back (a whole
     * number of chunks, or the capacity): only these are ever claimed, so
     * used <= backed, and nothing below used can raise SIGBUS when the file
     * system fills up. Only raised, by whoever backed the next chunk. */
    _Atomic uint32_t backed;
    /* 1 once the file system refused to back a page or chunk: what made
     * the table full, for its warning (guard/log.c). */
    _Atomic uint32_t roomless;
    _Alignas(64) _Atomic uint64_t reads;
    _Atomic uint64_t writes_allowed;
    _Atomic uint64_t refusals;
    _Atomic uint64_t warnings;
    /* Programs already named as running unguarded (unguarded.h), once per
     * session each: a hash of device and inode per slot, 0 for empty. */
    _Alignas(64) _Atomic uint64_t unguarded[RG_UNGUARDED_SLOTS];
    /* The files the session's launchers hand its tree to write (outputs.h),
     * a hash of device and inode per slot, filled from the first, 0 for
     * empty; outputs_over: one did not fit. */
    _Alignas(64) _Atomic uint64_t outputs[RG_OUTPUT_SLOTS];
    _Atomic uint32_t outputs_over;
    /* Written once by a process when it starts scanning; read for messages. */
    _Alignas(64) struct rg_scanner {
        _Atomic int32_t pid;
        char prog[16];
    } scanners[RG_SCANNERS];
};

/* 64 bytes: an entry is one cache line. */
_Static_assert(sizeof(struct rg_entry) == 64, "entry layout is part of the file format");
_Static_assert(sizeof(struct rg_header) <= RG_HEADER_SIZE, "header overflows its area");
_Static_assert(offsetof(struct rg_header, used) == 28800,
               "creator_pidns fits the padding: tables of before it still attach");
_Static_assert(offsetof(struct rg_header, created_ns) == 48 &&
                   offsetof(struct rg_header, creator_pid) == 40,
               "the session id's fields lead the header in every version (cli/pick.c)");

/* A file's key in the header's lists of files (unguarded, outputs): a
 * hash of device and inode, never 0, which marks an empty slot. */
static inline uint64_t rg_header_file_key(uint64_t dev, uint64_t ino)
{
    uint64_t k = (dev * 0x9e3779b97f4a7c15ull) ^ ino;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k ? k : 1;
}

/* Who keeps the session running. A table of another version (an upgrade
 * while it ran) has no owner_pid: its creator_pid served as both. */
static inline int32_t rg_header_owner(const struct rg_header *h)
{
    return h->version == RG_TABLE_VERSION ? atomic_load(&h->owner_pid) : h->creator_pid;
}

struct rg_settings {
    enum rg_mode mode;
    uint32_t capacity;
    const char *log_path;
    const char *journal_dir;  /* NULL: the default beside the log (os/session.c) */
    int64_t journal_max_file; /* 0: $READGUARD_JOURNAL_MAX_FILE, else the default */
    uint64_t creator_pidns;   /* filled by the table's maker (os/session.c) */
    const char *const *roots; /* absolute, canonical */
    size_t nroots;
    uint32_t flags; /* RG_POLICY_* */
    int64_t read_ttl_ns;
    uint32_t scan_files; /* 0: off */
    int64_t scan_window_ns;
    const char *ignores; /* packed rules (ignore.h), or NULL */
    size_t ignores_len;
    unsigned nignores;
};

/* A process's view of a mapped table. */
struct rg_table {
    struct rg_header *hdr;
    _Atomic uint32_t *index;
    struct rg_entry *entries;
    _Atomic uint64_t *names; /* index_slots / 2 of them */
    /* The page map, after the names: bit p set once page p of the index
     * (p < index_slots / 1024) or of the names (the rest) is backed by the
     * file system. Set only after it is, never cleared: a page marked is
     * backed, one backed but unmarked (a process killed in between) is
     * backed again by the next to need it. Nothing reads or writes a page
     * not marked: an index page not marked holds no key, and ends a probe
     * as an empty slot would. */
    _Atomic uint64_t *pages;
    size_t map_size;
    uint64_t dev, ino; /* the file's, as it was attached (os/session.c) */
    /* The header's, as validated at bind: any program of the user can
     * rewrite the shared header, and bounds read from it would send every
     * process of the session past its mapping. */
    uint32_t capacity, index_slots;
    /* Makes the file system back bytes [off, off + len) of the mapping
     * (entries, a page of the index or names) before any is touched: 0
     * when it did, or cannot tell (a sparse table, as before); -errno when
     * it has no room, which the table answers as full. NULL: nothing to
     * ask (a table in anonymous memory). Set by the table's mapper (os/). */
    int (*back)(const struct rg_table *t, size_t off, size_t len);
};

/* What a decision needs to know about an entry, read once. */
struct rg_record {
    bool found;   /* recorded in the current generation */
    bool written; /* its stamp is the session's own write (RG_GEN_WRITE) */
    int64_t mtime_ns;
    int64_t size;
    int64_t ctime_ns;
    int64_t read_ns;
    uint32_t writers;
    int32_t writer_pid;
    uint32_t hash;   /* of the recorded bytes; 0: not hashed */
    uint32_t reader; /* RG_READER_* */
};

/* The index's slots for a capacity: a power of two, at least twice it. */
static inline size_t rg_table_index_slots(uint32_t capacity)
{
    size_t slots = 1024;
    while (slots < 2 * (size_t)capacity)
        slots <<= 1;
    return slots;
}
/* Bits in the page map: a page of the index per 1024 slots, and as many of
 * the names (half as many slots, each twice the size). */
static inline uint32_t rg_table_page_count(size_t slots)
{
    return (uint32_t)(slots >> RG_INDEX_PAGE_SHIFT) * 2;
}

/* What a table-full reason counts (core/report.h): the capacity, or 0 when
 * the table stopped short of it because its file system refused room
 * (roomless), which no larger --capacity would cure. */
static inline uint32_t rg_table_full_at(const struct rg_header *h)
{
    return atomic_load_explicit(&h->roomless, memory_order_relaxed) &&
                   atomic_load_explicit(&h->used, memory_order_relaxed) < h->capacity
               ? 0
               : h->capacity;
}

size_t rg_table_file_size(uint32_t capacity);
/* Where the entries start in a table file, the names after them, and the
 * page map after those. The header and the page map are read anywhere at
 * any time, so their room is taken at creation; the rest as it is needed. */
size_t rg_table_entries_at(uint32_t capacity);
size_t rg_table_names_at(uint32_t capacity);
size_t rg_table_pages_at(uint32_t capacity);

/* Is page p (of the index, then the names) marked backed? Acquire: what
 * the page holds is read after the mark that says it may be touched. */
static inline bool rg_table_page_backed(const struct rg_table *t, uint32_t p)
{
    return atomic_load_explicit(&t->pages[p >> 6], memory_order_acquire) >> (p & 63) & 1;
}
/* Has the file system back page p, then marks it: false, marking nothing,
 * when it has no room. */
bool rg_table_page_back(const struct rg_table *t, uint32_t p);

/* The end of the chunk that entry n starts or lies in: the entries that
 * must be backed before n is written. */
static inline uint32_t rg_table_chunk_end(uint32_t n, uint32_t capacity)
{
    uint32_t end = n - n % RG_BACK_CHUNK + RG_BACK_CHUNK;
    return end < capacity ? end : capacity;
}

/* Raises the header's backed mark to to, never lowers it. */
void rg_table_backed_raise(struct rg_header *h, uint32_t to);

/* Fills a zeroed mapping of rg_table_file_size(capacity) bytes. Returns 0 or
 * -errno (-ENAMETOOLONG when the roots or log path do not fit). */
int rg_table_format(void *map, size_t size, const struct rg_settings *s, uint32_t uid,
                    int32_t creator_pid, int64_t now_ns);

/* The reasons a table of another user gives, or one in another user's
 * directory: the refusal's advice tells them from the others
 * (core/report.c). */
#define RG_TABLE_OTHER_USER "it belongs to another user"
#define RG_TABLE_OTHER_USERS_DIR "it is in another user's directory, closed to this one"

/* Checks that a mapping holds a table this build understands. Returns NULL or
 * a short reason ("wrong magic", "truncated", ...). */
const char *rg_table_validate(const void *map, size_t size, uint32_t expect_uid);

/* Are these scan settings ones rg_table_format accepts? */
bool rg_scan_settings_ok(uint32_t files, int64_t window_ns);

void rg_table_bind(struct rg_table *t, void *map, size_t size);

/* How many entries have been claimed: the bound of a loop over t->entries.
 * The header's count is shared and may be rewritten past the capacity the
 * table was attached with, so it is clamped to that. */
uint32_t rg_table_used(const struct rg_table *t);

struct rg_entry *rg_table_find(const struct rg_table *t, uint64_t dev, uint64_t ino);
/* NULL when the table is full (the header's full flag is then set). */
struct rg_entry *rg_table_find_or_add(struct rg_table *t, uint64_t dev, uint64_t ino);

/* What fstat said about a file, as far as the table cares. */
struct rg_stamp {
    int64_t mtime_ns;
    int64_t ctime_ns;
    int64_t size;
    uint32_t hash;   /* of the bytes, when a read took one; else 0 */
    uint32_t reader; /* RG_READER_* of the read; 0 for a write */
};

/* Records st as what the session knows the file to be; own_write says it was
 * taken after the session's own write. A read that raced with a newer write
 * must not roll the entry back, so a stamp older by ctime is dropped, and so
 * is a read that ties with a write's stamp within one timestamp tick. A read
 * taken later than that is the file's final state for the tick, and wins.
 * Returns whether the entry changed. */
bool rg_entry_stamp(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st,
                    bool own_write, int64_t now_ns);
/* The same, reading the time from clock only where the stamp needs it: a
 * restamp that finds the file as the entry has it (a write-open that wrote
 * nothing, as a database's O_RDWR open often does) needs none, and the
 * clock was a tenth of its cost. */
bool rg_entry_stamp_clock(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st,
                          bool own_write, int64_t (*clock)(void));
/* Is an entry (gen word cur, reader word had) that records the very stamp
 * of an own write by reader the session's own already: marked written,
 * with no other line's scan that the write must take over? */
static inline bool rg_entry_own_already(uint32_t cur, uint32_t had, uint32_t reader)
{
    return (cur & RG_GEN_WRITE) && !((had & RG_READER_SCAN) && had != reader);
}
/* Does e record st as the session's own bytes already, with nothing
 * rg_entry_stamp_clock(own_write) would change: the current generation
 * marked written, the same ctime, mtime and size, no scan to take over, no
 * hash to put and no read TTL to renew? That call then returns false at its
 * first test and touches nothing, so the restamp at the close of a
 * write-open that wrote nothing (every close of a file rewritten in place
 * but once) skips it: inline, one load of gen as stamp() makes. */
static inline bool rg_entry_own_as_is(const struct rg_table *t, const struct rg_entry *e,
                                      const struct rg_stamp *st)
{
    uint32_t gen = atomic_load_explicit(&t->hdr->generation, memory_order_relaxed);
    uint32_t cur = atomic_load_explicit(&e->gen, memory_order_acquire);
    uint32_t had = atomic_load_explicit(&e->reader, memory_order_relaxed);
    return (cur & RG_GEN_MASK) == gen && rg_entry_own_already(cur, had, st->reader) && !st->hash &&
           t->hdr->read_ttl_ns <= 0 &&
           atomic_load_explicit(&e->ctime_ns, memory_order_relaxed) == st->ctime_ns &&
           atomic_load_explicit(&e->mtime_ns, memory_order_relaxed) == st->mtime_ns &&
           atomic_load_explicit(&e->size, memory_order_relaxed) == st->size;
}
/* Is st already what e records, in the current generation, with no read TTL
 * to renew and no scan that a look or a write would take over? Then
 * rg_entry_stamp would change nothing, and a re-read of an unchanged file
 * (the common case) need not even read the clock. */
bool rg_entry_holds(const struct rg_table *t, const struct rg_entry *e, const struct rg_stamp *st);
/* Does e record st, in the current generation, whoever read it? */
static inline bool rg_entry_records(const struct rg_table *t, const struct rg_entry *e,
                                    const struct rg_stamp *st)
{
    uint32_t gen = atomic_load_explicit(&t->hdr->generation, memory_order_relaxed);
    return (atomic_load_explicit(&e->gen, memory_order_acquire) & RG_GEN_MASK) == gen &&
           atomic_load_explicit(&e->ctime_ns, memory_order_relaxed) == st->ctime_ns &&
           atomic_load_explicit(&e->mtime_ns, memory_order_relaxed) == st->mtime_ns &&
           atomic_load_explicit(&e->size, memory_order_relaxed) == st->size;
}
/* The same, with no read TTL to renew: a look or a scan. A re-read that
 * finds this (and no hash due) changes nothing in rg_entry_stamp either;
 * only the reader word may still change hands (rg_entry_reread). Inline: it
 * is the whole of a re-read's record. */
static inline bool rg_entry_unchanged(const struct rg_table *t, const struct rg_entry *e,
                                      const struct rg_stamp *st)
{
    return t->hdr->read_ttl_ns == 0 && rg_entry_records(t, e, st);
}
void rg_entry_forget(struct rg_entry *e);

/* The append stamp. --allow-append lets an unread file be appended to, and
 * the journal keeps its bytes first; that must not make the file known, so
 * no record of it may stay. What the entry holds instead is the stamp of
 * the bytes the journal kept, or that the session's appends made of them
 * since, so that the next process appending need not keep them again. Not
 * a record: gen stays 0, which no generation ever is, so no decision,
 * restamp or take-over can take it for a read or a write of the session's.
 * read_ns holds rg_append_mark(pid of the last process to append) instead
 * of a time, and the hash half a check of the fields (rg_append_check): a
 * forgotten read (read_ns a time) and a stamp torn by a racing one (the
 * check fails) never pass for one. */
static inline int64_t rg_append_mark(int32_t pid) { return -1 - (int64_t)pid; }
uint32_t rg_append_check(const struct rg_stamp *st, int64_t mark);
/* Does e hold the append stamp of st, whoever appended? */
bool rg_entry_appended_as(const struct rg_entry *e, const struct rg_stamp *st);
/* Does e hold an append stamp at all (readguard status: a file the session
 * appended to unread, whose read_ns is no time)? */
bool rg_entry_appended(const struct rg_entry *e);
/* pid is about to append to the file as st describes it, its bytes as the
 * journal keeps them: drops e's record (as rg_entry_forget) and leaves the
 * append stamp of st, unless it holds a newer one already. */
void rg_entry_append_begin(struct rg_entry *e, const struct rg_stamp *st, int32_t pid);
/* pid has let go of a descriptor it appended through, and the file is as
 * st says: if e holds pid's append stamp still, and st only grew from it,
 * st becomes it. Another process's append in between, a record, a shorter
 * file or a stamp under way leave e as it is: the next append keeps the
 * bytes again, a copy more, never one lost. */
void rg_entry_append_end(struct rg_entry *e, const struct rg_stamp *st, int32_t pid);
/* The journal has kept the bytes e records as st: they become as good as
 * the session's own (RG_GEN_WRITE), so an open for writing that changes
 * nothing does not keep them again. Only if e still holds st: a scan, or
 * another stamp, keeps its own mark. */
void rg_entry_mark_kept(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st);
/* A read st that rg_entry_stamp left unrecorded, and that found e holding
 * its very stamp: a view takes over a scan (the file has now been looked
 * at), a scan takes over another process's scan (the last scanner is the
 * one about to write), and a view by another process makes the entry the
 * session's (rg_reader_after); no scan takes over a view. A read dropped as
 * older than e, or tied with a write, saw other bytes: it takes nothing. */
void rg_entry_reread(const struct rg_table *t, struct rg_entry *e, const struct rg_stamp *st);
/* rg_entry_reread's hand-over of e to reader, and an own write's (which
 * also ors mark, RG_GEN_WRITE, into gen), made only if no stamp began since
 * the caller loaded e's hash_stamps as seen and found e recording its read
 * or write. Says whether it was made (or there was nothing to take over).
 * Apart so the race it closes can be tested step by step. */
bool rg_entry_take_over(struct rg_entry *e, uint64_t seen, uint32_t reader, uint32_t mark);
/* Does an entry read by had give way to a re-read of its very stamp by
 * reader? A scan gives way to a view or to another scanner; a view by one
 * process to a view by another, and then belongs to no process (0): each
 * of them looked, and one that turns out to be scanning later
 * (rg_entry_downgrade) must not take the other's look with it. */
static inline uint32_t rg_reader_after(uint32_t had, uint32_t reader)
{
    if (had == reader || (!(had & RG_READER_SCAN) && (had == 0 || (reader & RG_READER_SCAN))))
        return had;
    return had & RG_READER_SCAN ? reader : 0;
}
/* Turns this process's own view of e into a scan, unless a view by anyone
 * else has replaced it since. */
void rg_entry_downgrade(struct rg_entry *e, int32_t pid);
/* Names the program scanning as pid, and looks that name up ("" if lost). */
void rg_scanner_note(struct rg_header *h, int32_t pid, const char *prog);
void rg_scanner_name(const struct rg_header *h, int32_t pid, char out[16]);
/* Inline: a write reads its entry's record twice (the judgement, the
 * journal's "already kept?"), and a call returning the struct cost more
 * than the loads themselves. */
/* One lock-free load of e; *calm: no stamp landed meanwhile. */
static inline struct rg_record rg_entry_load_once(const struct rg_table *t,
                                                  const struct rg_entry *e, bool *calm)
{
    struct rg_record r = {0};
    uint64_t before = atomic_load_explicit(&e->hash_stamps, memory_order_acquire);
    uint32_t word = atomic_load_explicit(&e->gen, memory_order_acquire);
    uint32_t gen = word & RG_GEN_MASK;
    r.found = gen == atomic_load_explicit(&t->hdr->generation, memory_order_relaxed) && gen != 0;
    /* Acquire: the stamps count loaded after them is not read before
     * them (a fence would do it for all, but ThreadSanitizer has none). */
    r.mtime_ns = atomic_load_explicit(&e->mtime_ns, memory_order_acquire);
    r.size = atomic_load_explicit(&e->size, memory_order_acquire);
    r.ctime_ns = atomic_load_explicit(&e->ctime_ns, memory_order_relaxed);
    r.read_ns = atomic_load_explicit(&e->read_ns, memory_order_relaxed);
    uint32_t w = atomic_load_explicit(&e->writing, memory_order_relaxed);
    r.writers = w >> RG_WRITING_PID_BITS;
    r.writer_pid = (int32_t)(w & RG_WRITING_PID_MASK);
    r.reader = atomic_load_explicit(&e->reader, memory_order_relaxed);
    uint64_t after = atomic_load_explicit(&e->hash_stamps, memory_order_relaxed);
    r.hash = rg_hash_of(after);
    *calm = rg_stamps_of(before) == rg_stamps_of(after);
    /* A stamp stores gen last: loaded while one was under way, the mark is
     * the last stamp's, and the fields may be the new one's, another's
     * read, which the journal would then take for the session's own bytes
     * and not keep. The mark counts only from a stamp none was storing. */
    r.written = (word & RG_GEN_WRITE) && !(rg_stamps_of(before) & 1u) && *calm;
    return r;
}
/* A record whose fields a stamp stored while it was loaded, loaded again
 * (entry.c): an append stamp (entry_append.c) forgets the record, then
 * stores the fields of bytes nobody read, and a gen loaded before the
 * forget must not vouch for them. A few times: a stamper preempted mid-way
 * leaves the fields as the caller's second look finds them. */
struct rg_record rg_entry_load_again(const struct rg_table *t, const struct rg_entry *e);
static inline struct rg_record rg_entry_load(const struct rg_table *t, const struct rg_entry *e)
{
    if (!e)
        return (struct rg_record){0};
    bool calm;
    struct rg_record r = rg_entry_load_once(t, e, &calm);
    if (__builtin_expect(r.found && !calm, 0))
        return rg_entry_load_again(t, e);
    return r;
}
/* Inline, with rg_entry_writer_close and rg_entry_writers: one
 * compare-and-swap each, asked by every allowed write and its close. */
static inline void rg_entry_writer_open(struct rg_entry *e, int32_t pid)
{
    uint32_t w = atomic_load_explicit(&e->writing, memory_order_relaxed), next;
    do {
        uint32_t n = w >> RG_WRITING_PID_BITS;
        next = (n < RG_WRITING_MAX ? n + 1 : n) << RG_WRITING_PID_BITS |
               ((uint32_t)pid & RG_WRITING_PID_MASK);
    } while (!atomic_compare_exchange_weak_explicit(&e->writing, &w, next, memory_order_relaxed,
                                                    memory_order_relaxed));
}

/* The session's own act on a file it knows (a rename, a chmod, a link)
 * moves its ctime before the act can restamp it. Counted as a writer until
 * rg_entry_writer_close, it makes a sibling that looks in between wait for
 * the restamp (guard/ask.h) rather than refuse the file as changed. It names
 * no process: an act holds no descriptor, so it never passes for a live
 * writer, and one killed midway only delays a refusal. A writer already
 * named stays named. */
void rg_entry_act_begin(struct rg_entry *e);
static inline void rg_entry_writer_close(struct rg_entry *e)
{
    uint32_t w = atomic_load_explicit(&e->writing, memory_order_relaxed);
    while (w >> RG_WRITING_PID_BITS &&
           !atomic_compare_exchange_weak_explicit(&e->writing, &w, w - (1u << RG_WRITING_PID_BITS),
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
}

/* How many writers and own acts of the session are counted on e now. */
static inline uint32_t rg_entry_writers(const struct rg_entry *e)
{
    return atomic_load_explicit(&e->writing, memory_order_relaxed) >> RG_WRITING_PID_BITS;
}

/* Does e count a writer, and was pid the last to open it for writing? One
 * load: a metadata call through a write descriptor asks it (guard/meta.h). */
static inline bool rg_entry_live_writer(const struct rg_entry *e, int32_t pid)
{
    uint32_t w = atomic_load_explicit(&e->writing, memory_order_relaxed);
    return w >> RG_WRITING_PID_BITS && (w & RG_WRITING_PID_MASK) == (uint32_t)pid;
}

/* The name a read came by. A direct-mapped, lossy memory of which entry the
 * session last read under each name (core/namehint.h gives the key): only a
 * refusal asks it, to tell a name never read from one whose file was
 * replaced since it was read. A slot lost to another name costs only that
 * telling, never a decision. */
void rg_table_name_note(const struct rg_table *t, uint64_t key, const struct rg_entry *e);
/* The entry last noted under key, or NULL. */
struct rg_entry *rg_table_name_find(const struct rg_table *t, uint64_t key);

/* Forgets every read at once. */
void rg_table_reset(struct rg_table *t);

/* Iterates the roots stored in the header. */
const char *rg_table_root(const struct rg_header *h, const char *prev);

/* The roots as READGUARD_ROOTS lists them, for a process of the session
 * that finds no table to attach (it was removed, say) and must not then
 * guard less than the session did: separated by colons, or "/" when a
 * root's name holds a colon, when there is none, or when the list does not
 * fit in cap (at least 2). */
void rg_table_roots_list(const struct rg_header *h, char *out, size_t cap);

#endif
