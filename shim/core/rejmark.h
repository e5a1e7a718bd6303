/* The rejects GNU patch wrote: a hunk that fails goes to NAME.rej, beside
 * the file NAME it was for, renamed onto last time's unread. An agent that
 * retries a patch in a second session would be refused it after patch had
 * already replaced NAME (patch renames its output in first): the patch
 * half applied. Told by the header patch writes first, in its two
 * formats: "--- P" and "+++ Q" then "@@ -" (unified), or "*** P" and
 * "--- Q" then patch's row of stars (context, and what it turns a normal
 * diff into, naming /dev/null twice). P or Q is the file's own path as the
 * patch named it, or both are /dev/null; a diff a person keeps under a
 * .rej name is of another file. Journaled (readguard(1), IGNORE RULES,
 * Markers), never free. Pure: works on bytes the caller read. */
#ifndef RG_REJMARK_H
#define RG_REJMARK_H

#include <stdbool.h>
#include <stddef.h>

/* How many first bytes hold the header: two paths of 150 bytes, each with
 * diff's time, and the hunk's first bytes. */
#define RG_REJECTS_HEAD 384

/* Is name (a last component) NAME.rej whose first n bytes begin with the
 * header GNU patch writes its rejects of NAME under? */
bool rg_patch_rejects(const char *name, const char *head, size_t n);

#endif
