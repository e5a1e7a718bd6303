/* A path as a one-line message quotes it. */
#ifndef RG_SHOWN_H
#define RG_SHOWN_H

#include <stddef.h>

/* path with its control characters escaped (rg_line_escape, core/text.h),
 * so that a newline in a name cannot split a message or fake a line of its
 * own. The result lives in one of RG_SHOWN_SLOTS static buffers, reused in
 * turn: enough for the paths of one message, as the CLI is one thread. */
#define RG_SHOWN_SLOTS 4
const char *rg_shown(const char *path);
/* The same for path's first n bytes (a directory on the way to a file). */
const char *rg_shown_n(const char *path, size_t n);

#endif
