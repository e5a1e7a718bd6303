/* rg_decide (core/policy.c) on new names for a file (issue 14), as a table
 * of named cases: scope belongs to the inode, not the name. */
#include <fcntl.h>

#include "policy_case.h"

static const struct policy_case cases[] = {
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
};

int main(void)
{
    check_cases(cases, sizeof cases / sizeof *cases);
    return check_done();
}
