/* Is a file a build artifact a tool wrote, told by its name and its own
 * first bytes (core/toolmark.h), never by its directory: a wheel (pip
 * wheel . saves it in the working directory, beside the sources), a
 * Sphinx doctree (sphinx-build -M puts them in _build/doctrees, beside
 * the html output its .buildinfo marks), a message catalog msgfmt
 * compiled (NAME.mo, NAME.gmo), gcc --coverage's NAME.gcno and the
 * NAME.gcda its program adds to at exit, gcc -MMD's NAME.d, the
 * compile_commands.json bear or cmake writes, Go source a generator wrote
 * (core/gomark.h), a tarball make dist or npm pack wrote
 * (core/distmark.h), bison's, flex's, SWIG's,
 * protoc's, gperf's and xgettext's output, gcc -E's and -S's, git
 * format-patch's
 * (core/genmark.h), the rejects
 * GNU patch wrote (core/rejmark.h). Each run writes them over
 * unread, and outside a git work tree no ignore rule says they are the
 * tool's. They are journaled (readguard(1), IGNORE RULES), never free: a
 * wheel kept in a project may be the only copy of a build.
 *
 * Asked only for a write that would otherwise be refused; the answer is
 * the file's first bytes as they are now. */
#ifndef RG_ARTIFACT_H
#define RG_ARTIFACT_H

#include <stdbool.h>

/* abs: the file's absolute real path; head: its first n bytes (n < 0:
 * none could be read), at least RG_ARTIFACT_HEAD, RG_DIST_HEAD,
 * RG_GENERATED_C_HEAD, RG_GO_GENERATED_HEAD and RG_REJECTS_HEAD of them when
 * it has them. */
bool rg_artifact_owned(const char *abs, const char *head, long n);

#endif
