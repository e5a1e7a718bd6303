/* The reports a project's test and coverage tools write, told from a
 * file's first bytes: coverage.py's XML, JSON and LCOV reports, pytest's
 * and mypy's JUnit XML, eslint's JSON and JUnit XML, istanbul's (jest,
 * nyc, c8) LCOV, clover and cobertura reports, go test's -coverprofile,
 * gcov's annotated sources, valgrind's log. Each run writes them over
 * before a byte of them is read, under a name the user chose (coverage
 * xml -o, --junitxml=, --junit-xml, eslint -o, -coverprofile=,
 * --log-file=), and outside a git work tree no ignore rule says they are
 * the tools' (readguard(1), IGNORE RULES, Markers). Each is told by the
 * text its tool writes first, in the tool's own spelling, never by its
 * name: a person's file says none of it. Pure: works on bytes the caller
 * read. */
#ifndef RG_REPORTMARK_H
#define RG_REPORTMARK_H

#include <stdbool.h>
#include <stddef.h>

/* How many first bytes of a file tell: the longest report head (an XML
 * declaration, the root element with its attributes, a comment) fits. */
#define RG_REPORT_HEAD 512

/* Does head[0, n) begin as one of the reports' tools begins one? */
bool rg_report_head(const char *head, size_t n);

/* Does head[0, n) begin as a page of istanbul's html report (jest
 * --coverage, nyc, c8)? Its index.html marks the report's directory,
 * whose stylesheets and scripts the reporter copies over unread each run
 * (core/toolmark.h). */
bool rg_istanbul_page(const char *head, size_t n);

/* Does head[0, n) begin as pattern says? Bytes stand for themselves
 * but for three: '~' is any run of blanks and newlines, '#' a run of one
 * or more digits, '*' any bytes of the line up to the first that is the
 * pattern's next one (a literal, never the pattern's last). A NUL byte or
 * a head cut short matches nothing. */
bool rg_head_pattern(const char *pattern, const char *head, size_t n);

#endif
