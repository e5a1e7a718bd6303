/* C a parser or scanner generator wrote: bison's parser and its header
 * (parse.c, parse.h, parse.tab.c, the C++ skeletons' .cc and .hh), and
 * flex's scanner (lex.yy.c, scan.c). Each run of the generator, at make's
 * call after its grammar changed, writes them over unread, beside the
 * sources, where no ignore rule says they are the generator's. Told by
 * their own first line, as the generator writes it: bison's "A Bison
 * parser, made by GNU Bison " comment, flex's #line naming the file
 * itself (after an empty line, as flex begins lex.yy.c). Journaled, never
 * free: a generated parser kept and patched in a project stays undoable.
 * Pure: works on bytes the caller read. */
#ifndef RG_GENMARK_H
#define RG_GENMARK_H

#include <stdbool.h>
#include <stddef.h>

/* How many first bytes hold the line: a #line with a long path fits. */
#define RG_GENERATED_C_HEAD 256

/* Is name (a last component) a file whose first n bytes begin as bison's
 * or flex's output does? */
bool rg_parser_generated(const char *name, const char *head, size_t n);

#endif
