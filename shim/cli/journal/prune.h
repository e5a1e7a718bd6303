/* Pruning the journal by age and size: the policy the man page's JOURNAL
 * section states, carried out when a `readguard run` ends. */
#ifndef RG_JPRUNE_H
#define RG_JPRUNE_H

#include <stdbool.h>
#include <stdint.h>

/* Drops old sessions' records, and the versions no kept session names, by
 * the policy of READGUARD_JOURNAL_DAYS and READGUARD_JOURNAL_MAX; at most
 * once an hour unless now_please. Versions kept by a link are named by
 * content first (settle.h). */
void rg_jprune(const char *dir, bool now_please);

/* Says on stderr what a bad READGUARD_JOURNAL_MAX or READGUARD_JOURNAL_DAYS
 * makes the prune do instead (the default). A run asks at its start: the
 * prune runs at most once an hour, so a bound the user set and the prune
 * never applied would otherwise go unsaid for that long. */
void rg_prune_settings_check(void);

#define RG_PRUNE_DAY_NS (86400LL * 1000000000)

/* How many days what a session leaves behind is kept: its journal records
 * and its default log (logprune.h). READGUARD_JOURNAL_DAYS, default 30;
 * never more than days * RG_PRUNE_DAY_NS can hold. */
int64_t rg_prune_days(void);

#endif
