/* rg_decide (core/policy.c) on records a scan made (issue 17), as a table of
 * named cases: a scan unlocks the scanner's line only. */
#include <fcntl.h>

#include "policy_case.h"

static const struct policy_case cases[] = {
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
};

int main(void)
{
    check_cases(cases, sizeof cases / sizeof *cases);
    return check_done();
}
