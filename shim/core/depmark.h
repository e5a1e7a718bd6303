/* The dependency file gcc -MD or -MMD writes beside its output, NAME.d,
 * over unread at each compile (make reads it only where a makefile
 * includes it, ninja only after the compile). Pure: works on bytes the
 * caller read. */
#ifndef RG_DEPMARK_H
#define RG_DEPMARK_H

#include <stdbool.h>
#include <stddef.h>

/* Is name (a last component) NAME.d whose first n bytes begin a make
 * rule gcc wrote: its first target an object, "NAME.o:" then a blank or
 * the line's end; or the output gcc named it after (NAME, or NAME.EXT:
 * "gcc -MMD -o prog prog.c", "-o main.obj"), then ": " and the source
 * compiled, a C-family file by its extension. A D source file never
 * begins so. */
bool rg_depfile(const char *name, const char *head, size_t n);

#endif
