/* rg_decide (core/policy.c) on the session's own table, as a table of named
 * cases: sealed under --strict, and never written by a preloaded process. */
#include <fcntl.h>

#include "policy_case.h"

static const struct policy_case cases[] = {
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

int main(void)
{
    check_cases(cases, sizeof cases / sizeof *cases);
    return check_done();
}
