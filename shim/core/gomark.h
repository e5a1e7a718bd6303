/* Go source a generator wrote (go generate's stringer, protoc-gen-go,
 * mockgen, a project's own script): Go's convention
 * (https://go.dev/s/generatedcode) is a line "// Code generated ... DO NOT
 * EDIT." that no person writes into a file of their own. Each run of the
 * generator writes the file over unread, and outside a git work tree no
 * ignore rule says it is the generator's. Told by the file's own first
 * line only, where the generators write it: the convention also allows the
 * line further down, past a person's comments, which a generator does
 * not need. Journaled (readguard(1), IGNORE RULES, Markers), never free: a
 * file edited against the warning keeps the edit in the journal. Pure:
 * works on bytes the caller read. */
#ifndef RG_GOMARK_H
#define RG_GOMARK_H

#include <stdbool.h>
#include <stddef.h>

/* How many first bytes hold the line: the longest a generator writes (a
 * stringer command line, a protoc-gen-go source path) fits. */
#define RG_GO_GENERATED_HEAD 512

/* Is name (a last component) NAME.go whose first n bytes begin with the
 * whole line "// Code generated " ... " DO NOT EDIT." (its newline
 * included: a line cut short by n could go on)? */
bool rg_go_generated(const char *name, const char *head, size_t n);

#endif
