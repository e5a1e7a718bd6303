/* What a TeX run (pdflatex, xelatex, lualatex, bibtex; latexmk runs them)
 * writes over unread each time, told by names and first bytes, never by
 * a directory: a document's outputs sit beside its sources. Outside a
 * git work tree no ignore rule says they are the tool's. They are
 * journaled (readguard(1), IGNORE RULES, Markers), never free: a kept
 * PDF may be the only copy of a build. Pure: the caller reads the bytes.
 *
 * The engines read NAME.aux and NAME.toc before they write them; what
 * they open for writing unread is the transcript (NAME.log, bibtex's
 * NAME.blg, the recorder's NAME.fls), the PDF and bibtex's NAME.bbl. */
#ifndef RG_TEXMARK_H
#define RG_TEXMARK_H

#include <stdbool.h>
#include <stddef.h>

/* Is name (a last component) a transcript, NAME.log or NAME.blg, whose
 * first n bytes are an engine's banner: "This is ", a name ending in
 * "TeX" (pdfTeX, XeTeX, LuaHBTeX, BibTeX ...), then ", Version "? Or
 * the -recorder file latexmk asks for, NAME.fls, which the engine renames
 * onto the old one: "PWD /dir", then a line "INPUT " or "OUTPUT "? */
bool rg_tex_transcript(const char *name, const char *head, size_t n);

/* An output told by a file beside it of the same NAME, not by its own
 * bytes alone: a PDF (its head "%PDF-") beside the NAME.tex it was made
 * from, and bibtex's NAME.bbl beside the NAME.aux LaTeX wrote ("\relax"
 * first). The sibling of the run itself, not the transcript: the engine
 * truncates NAME.log before it opens the PDF, and bibtex NAME.blg before
 * NAME.bbl. */
struct rg_tex_output {    /* arrays, not pointers: no relocation at load */
    char suffix[8];       /* of the output's name */
    char head[8];         /* the output begins with it */
    char sibling[8];      /* NAME's other suffix */
    char sibling_head[8]; /* the sibling begins with it; "" is any byte
                           * at all (an empty file is none) */
};

/* Longest head either side needs. */
#define RG_TEX_HEAD 64

/* The output whose suffix ends path (with a NAME before it), and NAME's
 * length with its directory in *stem; NULL when none. */
const struct rg_tex_output *rg_tex_output(const char *path, size_t *stem);

bool rg_tex_output_head(const struct rg_tex_output *o, const char *head, size_t n);
bool rg_tex_sibling_head(const struct rg_tex_output *o, const char *head, size_t n);

#endif
