/* rg_decide (core/policy.c) on a file whose stamp moved since the read, as a
 * table of named cases: racy records told by their bytes, mtime moved or put
 * back, only the metadata moved. */
#include <fcntl.h>

#include "policy_case.h"

static const struct policy_case cases[] = {
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
};

int main(void)
{
    check_cases(cases, sizeof cases / sizeof *cases);
    return check_done();
}
