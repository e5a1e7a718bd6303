/* Unit tests for policy.c: rg_decide as a table of named cases. */
#include <fcntl.h>

#include "check.h"
#include "core/content.h"
#include "core/policy.h"
#define MTIME 1700000000000000000
#define CTIME 1700000100000000000
#define SIZE 4096

/* One case, flat: every field left out is zero, which reads as "the usual":
 * an existing regular file, a record (if found) that matches it exactly, no
 * writers, a working table, enforce mode. */
struct policy_case {
    const char *name;
    enum rg_op op;
    int flags;
    bool missing, special; /* the file does not exist / is not regular */
    bool unnamed;          /* open, but with no link left */
    enum rg_scope scope;
    enum rg_scope new_scope; /* RG_OP_LINK: where the new name is */
    bool found;              /* recorded in the current generation */
    int64_t mtime_off;       /* recorded mtime minus the file's */
    int64_t ctime_off;       /* recorded ctime minus the file's */
    int64_t size_off;        /* recorded size minus the file's */
    uint32_t writers;
    bool writer_alive;
    enum rg_table_state table;
    enum rg_mode mode;
    uint32_t policy;         /* RG_POLICY_* knobs */
    int64_t ttl;             /* --read-ttl, ns; 0 = off */
    int64_t read_age;        /* how long ago the record was made, ns */
    int64_t read_after;      /* the read came this long after the mtime; 0: at time 1 */
    uint32_t rec_hash;       /* hash of the recorded bytes; 0: none */
    bool hashed;             /* the file's bytes were hashed for this decision */
    uint32_t file_hash;      /* ... and gave this (0: unreadable) */
    bool big;                /* larger than RG_HASH_MAX */
    bool scanned;            /* the record's read was a scan (by pid 777) */
    enum rg_lineage lineage; /* of the writer to that scanner */
    bool sealed;             /* the session's own table, under --strict */
    bool own_table;          /* the session's own table, to a preloaded process */
    enum rg_unkept unkept;   /* the journal tried to keep the bytes, and could not */
    enum rg_action want;
    enum rg_reason why;
};

#define GUARDED .scope = RG_SCOPE_GUARDED
#define FREE .scope = RG_SCOPE_FREE
#define JOURNALED .scope = RG_SCOPE_JOURNALED
#define UNKNOWN .scope = RG_SCOPE_UNKNOWN
#define WARN_MODE .mode = RG_MODE_WARN
#define OPEN(fl) .op = RG_OP_OPEN, .flags = (fl)
#define ALLOW .want = RG_ALLOW, .why = RG_WHY_OK
#define ALLOW_KEPT .want = RG_ALLOW_KEPT, .why = RG_WHY_OK
#define NEED_SCOPE .want = RG_NEED_SCOPE, .why = RG_WHY_OK
#define REFUSE(r) .want = RG_REFUSE, .why = RG_WHY_##r
#define WARN(r) .want = RG_WARN, .why = RG_WHY_##r
#define UNTRACKED(r) .want = RG_ALLOW_UNTRACKED, .why = RG_WHY_##r
#define READ_ONLY(r) .want = RG_READ_ONLY, .why = RG_WHY_##r
#define APPEND_KNOB .policy = RG_POLICY_ALLOW_APPEND
#define UNLINK_KNOB .policy = RG_POLICY_GUARD_UNLINK
#define UNLINK .op = RG_OP_UNLINK, .flags = O_WRONLY
#define LINK .op = RG_OP_LINK
#define TO_GUARDED .new_scope = RG_SCOPE_GUARDED
#define TO_FREE .new_scope = RG_SCOPE_FREE
#define NEED_NEW_SCOPE .want = RG_NEED_NEW_SCOPE, .why = RG_WHY_OK
#define SEC 1000000000LL
#define NEED_HASH .want = RG_NEED_HASH, .why = RG_WHY_OK
#define RACY .read_after = 1000000 /* 1 ms: within a tick */
#define CALM .read_after = 10 * SEC
#define NEED_LINEAGE .want = RG_NEED_LINEAGE, .why = RG_WHY_OK
#define SCANNED .found = true, .scanned = true
#define TOUCH_FLAGS (O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY)

static const struct policy_case cases[] = {
    {"read_open_is_allowed", OPEN(O_RDONLY), GUARDED, ALLOW},
    {"read_open_needs_no_scope", OPEN(O_RDONLY), UNKNOWN, ALLOW},
    {"write_to_missing_file_is_allowed", OPEN(O_WRONLY | O_CREAT | O_TRUNC), .missing = true,
     GUARDED, ALLOW},
    {"write_to_non_regular_file_is_allowed", OPEN(O_WRONLY), .special = true, GUARDED, ALLOW},
    /* Replaced by a rename (often the session's own) while a sibling held it
     * open: no name reaches its bytes any more, whatever its stamp says. */
    {"write_to_an_unnamed_file_whose_ctime_moved_is_allowed", OPEN(O_WRONLY | O_TRUNC), GUARDED,
     .unnamed = true, .found = true, .ctime_off = -SEC, ALLOW},
    {"write_to_an_unnamed_unread_file_is_allowed", OPEN(O_WRONLY), GUARDED, .unnamed = true, ALLOW},
    {"ftruncate_of_an_unnamed_changed_file_is_allowed", .op = RG_OP_TRUNCATE, .flags = O_WRONLY,
     GUARDED, .unnamed = true, .found = true, .mtime_off = -SEC, ALLOW},
    {"write_to_a_named_file_whose_ctime_moved_is_still_refused", OPEN(O_WRONLY | O_TRUNC), GUARDED,
     .found = true, .ctime_off = -SEC, REFUSE(CHANGED)},
    {"sealed_unnamed_file_is_still_refused", OPEN(O_WRONLY), FREE, .unnamed = true, .sealed = true,
     REFUSE(SEALED)},
    {"recorded_with_equal_stamp_is_allowed", OPEN(O_RDWR), GUARDED, .found = true, ALLOW},
    {"recorded_with_equal_stamp_needs_no_scope", OPEN(O_WRONLY | O_TRUNC), UNKNOWN, .found = true,
     ALLOW},
    {"mtime_differs_unknown_scope_needs_scope", OPEN(O_WRONLY), UNKNOWN, .found = true,
     .mtime_off = -1, NEED_SCOPE},
    {"mtime_differs_guarded_is_refused_changed", OPEN(O_WRONLY), GUARDED, .found = true,
     .mtime_off = -1, REFUSE(CHANGED)},
    {"size_differs_alone_is_refused_changed", OPEN(O_WRONLY), GUARDED, .found = true, .size_off = 1,
     REFUSE(CHANGED)},
    {"not_recorded_guarded_is_refused_unread", OPEN(O_WRONLY), GUARDED, REFUSE(UNREAD)},
    {"not_recorded_unknown_scope_needs_scope", OPEN(O_WRONLY), UNKNOWN, NEED_SCOPE},
    /* found=false with a matching stamp: a record of an older generation. */
    {"stale_equal_stamp_is_refused_unread", OPEN(O_WRONLY), GUARDED, .found = false,
     REFUSE(UNREAD)},
    {"not_recorded_free_scope_is_allowed", OPEN(O_WRONLY), FREE, ALLOW},
    {"changed_free_scope_is_allowed", OPEN(O_WRONLY), FREE, .found = true, .mtime_off = 9, ALLOW},
    {"not_recorded_journaled_scope_is_allowed_once_kept", OPEN(O_WRONLY | O_TRUNC), JOURNALED,
     ALLOW_KEPT},
    {"changed_journaled_scope_is_allowed_once_kept", OPEN(O_WRONLY), JOURNALED, .found = true,
     .mtime_off = 9, ALLOW_KEPT},
    {"rename_over_journaled_scope_is_allowed_once_kept", .op = RG_OP_RENAME, JOURNALED, ALLOW_KEPT},
    {"journaled_too_large_to_keep_is_refused_unkept", OPEN(O_WRONLY | O_TRUNC), JOURNALED,
     .unkept = RG_UNKEPT_TOO_LARGE, REFUSE(UNKEPT)},
    {"journaled_with_an_unwritable_journal_is_refused_unkept", .op = RG_OP_RENAME, JOURNALED,
     .unkept = RG_UNKEPT_JOURNAL, REFUSE(UNKEPT)},
    {"journaled_unkept_warns_in_warn_mode", OPEN(O_WRONLY), JOURNALED, .unkept = RG_UNKEPT_JOURNAL,
     WARN_MODE, WARN(UNKEPT)},
    {"journaled_unkept_touch_gets_a_read_only_descriptor", OPEN(TOUCH_FLAGS), JOURNALED,
     .unkept = RG_UNKEPT_TOO_LARGE, READ_ONLY(UNKEPT)},
    {"journaled_unkept_append_is_untracked_with_append_allowed", OPEN(O_WRONLY | O_APPEND),
     JOURNALED, .unkept = RG_UNKEPT_TOO_LARGE, APPEND_KNOB, UNTRACKED(UNKEPT)},
    {"read_journaled_file_unkept_is_allowed", OPEN(O_WRONLY | O_TRUNC), JOURNALED, .found = true,
     .unkept = RG_UNKEPT_TOO_LARGE, ALLOW},
    {"journaled_scope_without_a_journal_is_refused", OPEN(O_WRONLY), JOURNALED,
     .policy = RG_POLICY_NO_JOURNAL, REFUSE(UNREAD)},
    {"journaled_scope_without_a_journal_warns_in_warn_mode", OPEN(O_WRONLY), JOURNALED,
     .policy = RG_POLICY_NO_JOURNAL, WARN_MODE, WARN(UNREAD)},
    {"warn_mode_unread_warns_unread", OPEN(O_WRONLY), GUARDED, WARN_MODE, WARN(UNREAD)},
    {"warn_mode_changed_warns_changed", OPEN(O_WRONLY), GUARDED, .found = true, .size_off = -SIZE,
     WARN_MODE, WARN(CHANGED)},
    {"warn_mode_table_full_warns_table_full", OPEN(O_WRONLY), GUARDED, .table = RG_TABLE_FULL,
     WARN_MODE, WARN(TABLE_FULL)},
    {"warn_mode_equal_stamp_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, WARN_MODE, ALLOW},
    {"warn_mode_unknown_scope_needs_scope", OPEN(O_WRONLY), UNKNOWN, WARN_MODE, NEED_SCOPE},
    {"live_writer_in_session_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, .mtime_off = 1,
     .writers = 1, .writer_alive = true, ALLOW},
    {"dead_writer_is_refused_changed", OPEN(O_WRONLY), GUARDED, .found = true, .mtime_off = 1,
     .writers = 2, .writer_alive = false, REFUSE(CHANGED)},
    {"alive_pid_without_writers_is_refused", OPEN(O_WRONLY), GUARDED, .found = true, .mtime_off = 1,
     .writers = 0, .writer_alive = true, REFUSE(CHANGED)},
    {"table_full_not_found_is_refused_table_full", OPEN(O_WRONLY), GUARDED, .table = RG_TABLE_FULL,
     REFUSE(TABLE_FULL)},
    {"table_full_found_equal_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true,
     .table = RG_TABLE_FULL, ALLOW},
    {"table_full_found_changed_is_refused_changed", OPEN(O_WRONLY), GUARDED, .found = true,
     .size_off = 1, .table = RG_TABLE_FULL, REFUSE(CHANGED)},
    {"table_broken_is_refused_no_table_even_if_found", OPEN(O_WRONLY), GUARDED, .found = true,
     .table = RG_TABLE_BROKEN, REFUSE(NO_TABLE)},
    {"table_broken_ignores_live_writer", OPEN(O_WRONLY), GUARDED, .found = true, .mtime_off = 1,
     .writers = 1, .writer_alive = true, .table = RG_TABLE_BROKEN, REFUSE(NO_TABLE)},
    {"table_broken_unknown_scope_needs_scope", OPEN(O_WRONLY), UNKNOWN, .table = RG_TABLE_BROKEN,
     NEED_SCOPE},
    {"table_broken_free_scope_is_allowed", OPEN(O_WRONLY), FREE, .table = RG_TABLE_BROKEN, ALLOW},
    {"table_broken_warn_mode_warns_no_table", OPEN(O_WRONLY), GUARDED, .table = RG_TABLE_BROKEN,
     WARN_MODE, WARN(NO_TABLE)},
    {"rdonly_trunc_open_is_a_write", OPEN(O_RDONLY | O_TRUNC), GUARDED, REFUSE(UNREAD)},
    {"rename_with_read_flags_is_a_write", .op = RG_OP_RENAME, .flags = O_RDONLY, GUARDED,
     REFUSE(UNREAD)},
    {"rename_over_changed_file_is_refused_changed", .op = RG_OP_RENAME, GUARDED, .found = true,
     .mtime_off = 5, REFUSE(CHANGED)},
    {"rename_onto_missing_file_is_allowed", .op = RG_OP_RENAME, .missing = true, GUARDED, ALLOW},
    {"truncate_with_read_flags_is_a_write", .op = RG_OP_TRUNCATE, .flags = O_RDONLY, GUARDED,
     REFUSE(UNREAD)},
    {"truncate_recorded_equal_is_allowed", .op = RG_OP_TRUNCATE, GUARDED, .found = true, ALLOW},
    {"spawn_open_with_read_flags_is_allowed", .op = RG_OP_SPAWN_OPEN, .flags = O_RDONLY, GUARDED,
     ALLOW},
    {"spawn_open_with_write_flags_is_refused", .op = RG_OP_SPAWN_OPEN, .flags = O_WRONLY | O_CREAT,
     GUARDED, REFUSE(UNREAD)},

    /* --allow-append */
    {"append_unread_without_knob_is_refused", OPEN(O_WRONLY | O_APPEND | O_CREAT), GUARDED,
     REFUSE(UNREAD)},
    {"append_unread_with_knob_is_allowed_untracked", OPEN(O_WRONLY | O_APPEND | O_CREAT), GUARDED,
     APPEND_KNOB, UNTRACKED(UNREAD)},
    {"append_changed_with_knob_is_allowed_untracked", OPEN(O_RDWR | O_APPEND), GUARDED,
     .found = true, .size_off = -1, APPEND_KNOB, UNTRACKED(CHANGED)},
    {"append_with_trunc_and_knob_is_refused", OPEN(O_WRONLY | O_APPEND | O_TRUNC), GUARDED,
     APPEND_KNOB, REFUSE(UNREAD)},
    {"write_without_append_and_knob_is_refused", OPEN(O_WRONLY | O_CREAT), GUARDED, APPEND_KNOB,
     REFUSE(UNREAD)},
    {"append_recorded_with_knob_is_allowed_tracked", OPEN(O_WRONLY | O_APPEND), GUARDED,
     .found = true, APPEND_KNOB, ALLOW},
    {"append_with_knob_in_warn_mode_is_not_warned", OPEN(O_WRONLY | O_APPEND), GUARDED, WARN_MODE,
     APPEND_KNOB, UNTRACKED(UNREAD)},
    {"append_with_knob_unknown_scope_needs_scope", OPEN(O_WRONLY | O_APPEND), UNKNOWN, APPEND_KNOB,
     NEED_SCOPE},
    {"append_with_knob_free_scope_is_allowed", OPEN(O_WRONLY | O_APPEND), FREE, APPEND_KNOB, ALLOW},
    {"spawn_append_with_knob_is_allowed_untracked", .op = RG_OP_SPAWN_OPEN,
     .flags = O_WRONLY | O_APPEND, GUARDED, APPEND_KNOB, UNTRACKED(UNREAD)},
    {"truncate_with_append_knob_is_refused", .op = RG_OP_TRUNCATE, .flags = O_WRONLY, GUARDED,
     APPEND_KNOB, REFUSE(UNREAD)},

    /* touch(1) */
    {"touch_of_unread_file_is_read_only", OPEN(TOUCH_FLAGS), GUARDED, READ_ONLY(UNREAD)},
    {"touch_of_changed_file_is_read_only", OPEN(TOUCH_FLAGS), GUARDED, .found = true,
     .mtime_off = 1, READ_ONLY(CHANGED)},
    {"touch_of_recorded_file_is_allowed", OPEN(TOUCH_FLAGS), GUARDED, .found = true, ALLOW},
    {"touch_shape_in_warn_mode_warns", OPEN(TOUCH_FLAGS), GUARDED, WARN_MODE, WARN(UNREAD)},
    {"wronly_creat_without_nonblock_is_refused", OPEN(O_WRONLY | O_CREAT), GUARDED, REFUSE(UNREAD)},
    {"touch_shape_with_trunc_is_refused", OPEN(TOUCH_FLAGS | O_TRUNC), GUARDED, REFUSE(UNREAD)},
    {"touch_shape_rdwr_is_refused", OPEN(O_RDWR | O_CREAT | O_NONBLOCK), GUARDED, REFUSE(UNREAD)},
    /* truncate(1): touch's open without O_NOCTTY, then ftruncate */
    {"truncate_open_of_unread_file_is_refused", OPEN(O_WRONLY | O_CREAT | O_NONBLOCK), GUARDED,
     REFUSE(UNREAD)},
    {"touch_shape_in_spawn_open_is_refused", .op = RG_OP_SPAWN_OPEN, .flags = TOUCH_FLAGS, GUARDED,
     REFUSE(UNREAD)},
    {"touch_shape_free_scope_is_allowed", OPEN(TOUCH_FLAGS), FREE, ALLOW},

    /* --guard-unlink */
    {"unlink_unread_without_knob_is_allowed", UNLINK, GUARDED, ALLOW},
    {"unlink_without_knob_needs_no_scope", UNLINK, UNKNOWN, ALLOW},
    {"unlink_unread_with_knob_is_refused_unread", UNLINK, GUARDED, UNLINK_KNOB, REFUSE(UNREAD)},
    {"unlink_changed_with_knob_is_refused_changed", UNLINK, GUARDED, .found = true, .mtime_off = 3,
     UNLINK_KNOB, REFUSE(CHANGED)},
    {"unlink_recorded_with_knob_is_allowed", UNLINK, GUARDED, .found = true, UNLINK_KNOB, ALLOW},
    {"unlink_missing_with_knob_is_allowed", UNLINK, .missing = true, GUARDED, UNLINK_KNOB, ALLOW},
    {"unlink_symlink_with_knob_is_allowed", UNLINK, .special = true, GUARDED, UNLINK_KNOB, ALLOW},
    {"unlink_with_knob_unknown_scope_needs_scope", UNLINK, UNKNOWN, UNLINK_KNOB, NEED_SCOPE},
    {"unlink_with_knob_free_scope_is_allowed", UNLINK, FREE, UNLINK_KNOB, ALLOW},
    {"unlink_with_knob_in_warn_mode_warns", UNLINK, GUARDED, UNLINK_KNOB, WARN_MODE, WARN(UNREAD)},
    {"unlink_unread_the_journal_could_not_keep_is_refused_unkept", UNLINK, GUARDED,
     .unkept = RG_UNKEPT_TOO_LARGE, REFUSE(UNKEPT)},

    /* --read-ttl */
    {"read_within_ttl_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, .ttl = 10 * SEC,
     .read_age = 5 * SEC, ALLOW},
    {"read_exactly_ttl_old_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, .ttl = 10 * SEC,
     .read_age = 10 * SEC, ALLOW},
    {"read_older_than_ttl_is_refused_expired", OPEN(O_WRONLY), GUARDED, .found = true,
     .ttl = 10 * SEC, .read_age = 10 * SEC + 1, REFUSE(EXPIRED)},
    {"read_older_than_ttl_unknown_scope_needs_scope", OPEN(O_WRONLY), UNKNOWN, .found = true,
     .ttl = SEC, .read_age = 2 * SEC, NEED_SCOPE},
    {"expired_and_changed_is_refused_changed", OPEN(O_WRONLY), GUARDED, .found = true,
     .mtime_off = 1, .ttl = SEC, .read_age = 2 * SEC, REFUSE(CHANGED)},
    {"expired_with_live_writer_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, .writers = 1,
     .writer_alive = true, .ttl = SEC, .read_age = 2 * SEC, ALLOW},
    {"no_ttl_never_expires", OPEN(O_WRONLY), GUARDED, .found = true, .read_age = 100000 * SEC,
     ALLOW},
    {"expired_in_warn_mode_warns_expired", OPEN(O_WRONLY), GUARDED, .found = true, .ttl = SEC,
     .read_age = 2 * SEC, WARN_MODE, WARN(EXPIRED)},
    {"expired_free_scope_is_allowed", OPEN(O_WRONLY), FREE, .found = true, .ttl = SEC,
     .read_age = 2 * SEC, ALLOW},

    /* Racy records: a change in the read's own tick keeps mtime and size. */
    {"racy_record_with_hash_asks_for_the_bytes", OPEN(O_WRONLY), GUARDED, .found = true, RACY,
     .rec_hash = 7, NEED_HASH},
    {"racy_record_same_bytes_is_allowed", OPEN(O_WRONLY), UNKNOWN, .found = true, RACY,
     .rec_hash = 7, .hashed = true, .file_hash = 7, ALLOW},
    {"racy_record_other_bytes_is_refused_as_changed", OPEN(O_WRONLY), GUARDED, .found = true, RACY,
     .rec_hash = 7, .hashed = true, .file_hash = 8, REFUSE(CHANGED)},
    {"racy_record_unreadable_now_is_refused_as_changed", OPEN(O_WRONLY), GUARDED, .found = true,
     RACY, .rec_hash = 7, .hashed = true, .file_hash = 0, REFUSE(CHANGED)},
    {"racy_record_other_bytes_outside_roots_is_allowed", OPEN(O_WRONLY), FREE, .found = true, RACY,
     .rec_hash = 7, .hashed = true, .file_hash = 8, ALLOW},
    {"racy_record_other_bytes_warns_in_warn_mode", OPEN(O_WRONLY), GUARDED, .found = true, RACY,
     .rec_hash = 7, .hashed = true, .file_hash = 8, WARN_MODE, WARN(CHANGED)},
    {"racy_record_without_hash_trusts_the_stamp", OPEN(O_WRONLY), GUARDED, .found = true, RACY,
     ALLOW},
    {"calm_record_trusts_the_stamp_without_hashing", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .rec_hash = 7, ALLOW},
    {"racy_large_record_same_first_bytes_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, RACY,
     .big = true, .rec_hash = 7, .hashed = true, .file_hash = 7, ALLOW},
    {"racy_record_same_bytes_but_expired_is_refused_as_expired", OPEN(O_WRONLY), GUARDED,
     .found = true, RACY, .rec_hash = 7, .hashed = true, .file_hash = 7, .ttl = SEC,
     .read_age = 2 * SEC, REFUSE(EXPIRED)},

    /* mtime moved, size did not: touch, a checkout or sync of the same bytes. */
    {"moved_mtime_same_size_asks_for_the_bytes", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .mtime_off = -SEC, .rec_hash = 7, NEED_HASH},
    {"moved_mtime_same_bytes_is_allowed", OPEN(O_WRONLY | O_TRUNC), GUARDED, .found = true, CALM,
     .mtime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 7, ALLOW},
    {"moved_mtime_other_bytes_is_refused_as_changed", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .mtime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 9, REFUSE(CHANGED)},
    {"moved_mtime_other_size_does_not_ask_for_the_bytes", OPEN(O_WRONLY), GUARDED, .found = true,
     CALM, .mtime_off = -SEC, .size_off = 1, .rec_hash = 7, REFUSE(CHANGED)},
    {"moved_mtime_without_hash_is_changed", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .mtime_off = -SEC, REFUSE(CHANGED)},
    {"moved_mtime_large_file_is_changed_whatever_its_first_bytes", OPEN(O_WRONLY), GUARDED,
     .found = true, CALM, .mtime_off = -SEC, .big = true, .rec_hash = 7, .hashed = true,
     .file_hash = 7, REFUSE(CHANGED)},
    {"moved_mtime_same_bytes_unread_is_still_unread", OPEN(O_WRONLY), GUARDED, .found = false, CALM,
     .mtime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 7, REFUSE(UNREAD)},

    /* mtime put back after a change (touch -d, cp -p, rsync -t, tar -x):
     * only ctime tells, and the bytes, where the record has them whole. */
    {"restored_mtime_moved_ctime_asks_for_the_bytes", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .ctime_off = -SEC, .rec_hash = 7, NEED_HASH},
    {"restored_mtime_other_bytes_is_refused_as_changed", OPEN(O_WRONLY | O_TRUNC), GUARDED,
     .found = true, CALM, .ctime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 9,
     REFUSE(CHANGED)},
    {"restored_mtime_without_hash_is_refused_as_changed", OPEN(O_WRONLY), GUARDED, .found = true,
     CALM, .ctime_off = -SEC, REFUSE(CHANGED)},
    {"restored_mtime_large_file_is_changed_whatever_its_first_bytes", OPEN(O_WRONLY), GUARDED,
     .found = true, CALM, .ctime_off = -SEC, .big = true, .rec_hash = 7, .hashed = true,
     .file_hash = 7, REFUSE(CHANGED)},
    {"restored_mtime_racy_record_other_bytes_is_refused_as_changed", OPEN(O_WRONLY), GUARDED,
     .found = true, RACY, .ctime_off = -1, .rec_hash = 7, .hashed = true, .file_hash = 9,
     REFUSE(CHANGED)},
    {"restored_mtime_outside_the_roots_is_allowed", OPEN(O_WRONLY), FREE, .found = true, CALM,
     .ctime_off = -SEC, ALLOW},
    {"restored_mtime_in_warn_mode_warns_changed", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .ctime_off = -SEC, WARN_MODE, WARN(CHANGED)},
    {"restored_mtime_being_written_by_a_live_writer_is_allowed", OPEN(O_WRONLY), GUARDED,
     .found = true, CALM, .ctime_off = -SEC, .writers = 1, .writer_alive = true, ALLOW},
    /* Only the metadata moved (chmod, chown, a link by another program). */
    {"moved_ctime_same_bytes_is_allowed", OPEN(O_WRONLY | O_TRUNC), UNKNOWN, .found = true, CALM,
     .ctime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 7, ALLOW},
    {"moved_ctime_same_bytes_unread_is_still_unread", OPEN(O_WRONLY), GUARDED, CALM,
     .ctime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 7, REFUSE(UNREAD)},
    {"moved_ctime_same_bytes_touched_open_is_allowed", OPEN(TOUCH_FLAGS), GUARDED, .found = true,
     CALM, .ctime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 7, ALLOW},
    {"moved_ctime_and_mtime_same_bytes_is_allowed", OPEN(O_WRONLY), GUARDED, .found = true, CALM,
     .mtime_off = -SEC, .ctime_off = -SEC, .rec_hash = 7, .hashed = true, .file_hash = 7, ALLOW},

    /* Scans (issue 17): a scan unlocks the scanner's line only. */
    {"scanned_record_asks_for_the_lineage_before_the_scope", OPEN(O_WRONLY | O_TRUNC), UNKNOWN,
     SCANNED, NEED_LINEAGE},
    {"scanned_record_written_by_its_line_is_allowed", OPEN(O_WRONLY | O_TRUNC), UNKNOWN, SCANNED,
     .lineage = RG_LINEAGE_DESCENDS, ALLOW},
    {"scanned_record_written_by_another_line_asks_for_the_scope", OPEN(O_WRONLY | O_TRUNC), UNKNOWN,
     SCANNED, .lineage = RG_LINEAGE_OTHER, NEED_SCOPE},
    {"scanned_record_written_by_another_line_is_refused_as_scanned", OPEN(O_WRONLY | O_TRUNC),
     GUARDED, SCANNED, .lineage = RG_LINEAGE_OTHER, REFUSE(SCANNED)},
    {"scanned_record_outside_the_roots_is_allowed", OPEN(O_WRONLY | O_TRUNC), FREE, SCANNED,
     .lineage = RG_LINEAGE_OTHER, ALLOW},
    {"scanned_record_in_warn_mode_warns_as_scanned", OPEN(O_WRONLY | O_TRUNC), GUARDED, SCANNED,
     .lineage = RG_LINEAGE_OTHER, WARN_MODE, WARN(SCANNED)},
    {"scanned_record_touched_gets_read_only_as_scanned", OPEN(TOUCH_FLAGS), GUARDED, SCANNED,
     .lineage = RG_LINEAGE_OTHER, READ_ONLY(SCANNED)},
    {"scanned_record_being_written_by_a_live_writer_is_allowed", OPEN(O_WRONLY), UNKNOWN, SCANNED,
     .writers = 1, .writer_alive = true, ALLOW},
    {"scanned_then_changed_is_refused_as_changed_without_lineage", OPEN(O_WRONLY), GUARDED, SCANNED,
     .size_off = 1, REFUSE(CHANGED)},
    {"scanned_and_expired_is_refused_as_expired_without_lineage", OPEN(O_WRONLY), GUARDED, SCANNED,
     .ttl = SEC, .read_age = 2 * SEC, REFUSE(EXPIRED)},
    {"scanned_racy_record_asks_for_the_bytes_first", OPEN(O_WRONLY), UNKNOWN, SCANNED, RACY,
     .rec_hash = 7, NEED_HASH},
    {"scanned_racy_record_same_bytes_asks_for_the_lineage", OPEN(O_WRONLY), UNKNOWN, SCANNED, RACY,
     .rec_hash = 7, .hashed = true, .file_hash = 7, NEED_LINEAGE},
    {"scanned_unlink_with_guard_unlink_by_another_line_is_refused", UNLINK, UNLINK_KNOB, GUARDED,
     SCANNED, .lineage = RG_LINEAGE_OTHER, REFUSE(SCANNED)},
    {"scan_flag_on_a_forgotten_record_is_unread", OPEN(O_WRONLY), GUARDED, .scanned = true,
     REFUSE(UNREAD)},
    {"scan_flag_with_a_broken_table_is_no_table", OPEN(O_WRONLY), GUARDED, SCANNED,
     .table = RG_TABLE_BROKEN, REFUSE(NO_TABLE)},

    /* New names (issue 14): scope belongs to the inode, not the name. */
    {"new_name_for_a_known_file_needs_no_scope", LINK, UNKNOWN, .found = true, ALLOW},
    {"new_name_for_an_unread_file_asks_its_scope_first", LINK, UNKNOWN, NEED_SCOPE},
    {"new_name_for_an_unread_free_file_is_allowed", LINK, FREE, ALLOW},
    {"new_name_for_an_unread_guarded_file_asks_the_new_scope", LINK, GUARDED, NEED_NEW_SCOPE},
    {"new_guarded_name_for_an_unread_file_is_allowed", LINK, GUARDED, TO_GUARDED, ALLOW},
    {"new_free_name_for_an_unread_file_is_refused_unread", LINK, GUARDED, TO_FREE, REFUSE(UNREAD)},
    {"new_free_name_for_a_changed_file_is_refused_changed", LINK, GUARDED, TO_FREE, .found = true,
     .size_off = 1, REFUSE(CHANGED)},
    {"new_journaled_name_for_an_unread_file_is_refused_unread", LINK, GUARDED,
     .new_scope = RG_SCOPE_JOURNALED, REFUSE(UNREAD)},
    {"new_free_name_for_an_unread_journaled_file_is_allowed", LINK, .scope = RG_SCOPE_JOURNALED,
     TO_FREE, ALLOW},
    {"new_free_name_in_warn_mode_warns", LINK, GUARDED, TO_FREE, WARN_MODE, WARN(UNREAD)},
    {"new_free_name_for_a_file_being_written_is_allowed", LINK, GUARDED, TO_FREE, .found = true,
     .mtime_off = 1, .writers = 1, .writer_alive = true, ALLOW},
    {"new_free_name_for_a_non_regular_file_is_allowed", LINK, .special = true, GUARDED, TO_FREE,
     ALLOW},
    {"new_free_name_is_refused_even_with_append_allowed", LINK, GUARDED, TO_FREE, APPEND_KNOB,
     REFUSE(UNREAD)},
    {"new_free_name_with_a_broken_table_is_refused_no_table", LINK, GUARDED, TO_FREE,
     .table = RG_TABLE_BROKEN, REFUSE(NO_TABLE)},
    {"sealed_table_read_is_refused", OPEN(O_RDONLY), FREE, .sealed = true, REFUSE(SEALED)},
    {"sealed_table_read_after_a_record_is_refused", OPEN(O_RDONLY), FREE, .found = true,
     .sealed = true, REFUSE(SEALED)},
    {"sealed_table_truncate_is_refused", .op = RG_OP_TRUNCATE, .flags = O_WRONLY, FREE,
     .sealed = true, REFUSE(SEALED)},
    {"sealed_table_rename_in_warn_mode_is_refused", .op = RG_OP_RENAME, FREE, WARN_MODE,
     .sealed = true, REFUSE(SEALED)},
    {"own_table_write_open_is_refused", OPEN(O_WRONLY | O_TRUNC), FREE, .own_table = true,
     REFUSE(SEALED)},
    {"own_table_truncate_in_warn_mode_is_refused", .op = RG_OP_TRUNCATE, .flags = O_WRONLY, FREE,
     WARN_MODE, .own_table = true, REFUSE(SEALED)},
    {"own_table_rename_onto_is_refused", .op = RG_OP_RENAME, FREE, .own_table = true,
     REFUSE(SEALED)},
    {"own_table_read_is_allowed", OPEN(O_RDONLY), FREE, .own_table = true, ALLOW},
    {"own_table_removal_is_allowed", UNLINK, FREE, UNLINK_KNOB, .own_table = true, ALLOW},
};

static const struct policy_case *current;

static const char *action_name(enum rg_action a)
{
    switch (a) {
    case RG_ALLOW: return "ALLOW";
    case RG_NEED_SCOPE: return "NEED_SCOPE";
    case RG_WARN: return "WARN";
    case RG_REFUSE: return "REFUSE";
    case RG_ALLOW_UNTRACKED: return "ALLOW_UNTRACKED";
    case RG_READ_ONLY: return "READ_ONLY";
    case RG_NEED_HASH: return "NEED_HASH";
    case RG_NEED_LINEAGE: return "NEED_LINEAGE";
    case RG_NEED_NEW_SCOPE: return "NEED_NEW_SCOPE";
    case RG_ALLOW_KEPT: return "ALLOW_KEPT";
    }
    return "?";
}

TEST(decide_case)
{
    const struct policy_case *c = current;
    struct rg_request req = {.op = c->op,
                             .call = "test",
                             .dirfd = AT_FDCWD,
                             .path = "f",
                             .flags = c->flags,
                             .mode = 0644};
    int64_t size = c->big ? RG_HASH_MAX + 1 : SIZE;
    int64_t read_ns = c->read_after ? MTIME + c->read_after : 1;
    struct rg_file file = {.exists = !c->missing,
                           .regular = !c->special,
                           .unnamed = c->unnamed,
                           .dev = 8,
                           .ino = 42,
                           .mtime_ns = MTIME,
                           .ctime_ns = CTIME,
                           .size = size,
                           .scope = c->scope,
                           .new_scope = c->new_scope,
                           .hashed = c->hashed,
                           .hash = c->file_hash,
                           .unkept = c->unkept};
    struct rg_facts facts = {
        .rec = {.found = c->found,
                .mtime_ns = MTIME + c->mtime_off,
                .ctime_ns = CTIME + c->ctime_off,
                .size = size + c->size_off,
                .read_ns = read_ns,
                .writers = c->writers,
                .writer_pid = c->writers ? 4321 : 0,
                .hash = c->rec_hash,
                .reader = c->scanned ? 777 | RG_READER_SCAN : 777},
        .lineage = c->lineage,
        .writer_alive = c->writer_alive,
        .table = c->table,
        .mode = c->mode,
        .policy = c->policy,
        .read_ttl_ns = c->ttl,
        .now_ns = read_ns + c->read_age,
        .sealed = c->sealed,
        .own_table = c->own_table,
    };
    struct rg_decision d = rg_decide(&req, &file, &facts);
    CHECK_EQ_STR(action_name(d.action), action_name(c->want));
    CHECK_EQ_STR(rg_reason_name(d.reason), rg_reason_name(c->why));
}

TEST(reason_names)
{
    CHECK_EQ_STR(rg_reason_name(RG_WHY_OK), "ok");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_UNREAD), "unread");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_CHANGED), "changed");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_TABLE_FULL), "table-full");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_NO_TABLE), "no-table");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_EXPIRED), "expired");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_SCANNED), "scanned");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_SEALED), "sealed");
    CHECK_EQ_STR(rg_reason_name(RG_WHY_UNKEPT), "unkept");
    CHECK_EQ_STR(rg_reason_name((enum rg_reason)42), "?");
}

/* A writer of the session in flight may restamp what a scan recorded of
 * its bytes; without one, only the scanner's line may write them. */
TEST(scanned_refusal_may_clear_only_while_a_writer_is_counted)
{
    CHECK(rg_refusal_may_clear(RG_WHY_SCANNED, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_SCANNED, 0));
}

TEST(changed_refusal_may_clear_with_or_without_a_writer)
{
    CHECK(rg_refusal_may_clear(RG_WHY_CHANGED, 0));
    CHECK(rg_refusal_may_clear(RG_WHY_CHANGED, 2));
}

TEST(other_refusals_never_clear_on_a_second_look)
{
    CHECK(!rg_refusal_may_clear(RG_WHY_UNREAD, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_EXPIRED, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_REPLACED, 1));
    CHECK(!rg_refusal_may_clear(RG_WHY_SEALED, 1));
}

TEST(restamp_pauses_double_from_a_fifth_of_a_millisecond)
{
    CHECK_EQ_INT(rg_restamp_pause_ns(0), 200000);
    CHECK_EQ_INT(rg_restamp_pause_ns(1), 400000);
    CHECK_EQ_INT(rg_restamp_pause_ns(3), 1600000);
}

TEST(restamp_pauses_never_exceed_a_step)
{
    for (int look = 0; look < 64; look++)
        CHECK(rg_restamp_pause_ns(look) <= RG_RESTAMP_STEP_NS);
    CHECK_EQ_INT(rg_restamp_pause_ns(9), RG_RESTAMP_STEP_NS);
}

/* A writer killed midway never restamps: the wait must end, after most of
 * the budget (a stalled sibling is waited for) and never beyond it. */
TEST(restamp_wait_ends_within_its_budget)
{
    int64_t total = 0;
    int look = 0;
    for (int64_t p; (p = rg_restamp_pause_ns(look)) > 0 && look < 1000; look++)
        total += p;
    CHECK(look < 1000);
    CHECK(total <= RG_RESTAMP_WAIT_NS);
    CHECK(total > RG_RESTAMP_WAIT_NS - RG_RESTAMP_STEP_NS);
    CHECK_EQ_INT(rg_restamp_pause_ns(look + 5), 0);
    CHECK_EQ_INT(rg_restamp_pause_ns(-1), 0);
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        current = &cases[i];
        check_run(decide_case, cases[i].name);
    }
    RUN(reason_names);
    RUN(scanned_refusal_may_clear_only_while_a_writer_is_counted);
    RUN(changed_refusal_may_clear_with_or_without_a_writer);
    RUN(other_refusals_never_clear_on_a_second_look);
    RUN(restamp_pauses_double_from_a_fifth_of_a_millisecond);
    RUN(restamp_pauses_never_exceed_a_step);
    RUN(restamp_wait_ends_within_its_budget);
    return check_done();
}
