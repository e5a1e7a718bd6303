/* rg_decide (core/policy.c) under its knobs, as a table of named cases:
 * --allow-append, touch(1) and truncate(1), --guard-unlink, --read-ttl. */
#include <fcntl.h>

#include "policy_case.h"

static const struct policy_case cases[] = {
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
};

int main(void)
{
    check_cases(cases, sizeof cases / sizeof *cases);
    return check_done();
}
