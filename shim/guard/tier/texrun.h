/* Is a file one a TeX run writes over unread (core/texmark.h): a
 * transcript told by its own first bytes, a PDF or bibliography told by
 * the source or .aux of the same name beside it. Asked only for a write
 * that would otherwise be refused. */
#ifndef RG_TEXRUN_H
#define RG_TEXRUN_H

#include <stdbool.h>

/* abs: the file's absolute real path; head: its first n bytes (n < 0:
 * none could be read), at least RG_TEX_HEAD of them when it has them. */
bool rg_texrun_owned(const char *abs, const char *head, long n);

#endif
