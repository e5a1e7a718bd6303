#!/usr/bin/env bats
# The journaled tier outside git for a TeX document's run and a message
# catalog: what pdflatex, bibtex and msgfmt write over unread each run,
# told by their engine's banner, by the file of the same name beside them
# (core/texmark.c) or by their own first bytes (core/toolmark.c). A second
# session's run of the same tool must not be refused, and the journal
# keeps the first run's output; a hand-written look-alike stays guarded.
# The tools are Debian's (texlive-latex-base, gettext); a test whose tool
# is missing is skipped, never passed.

load helper

setup() {
	outside_git_setup TEXINPUTS BIBINPUTS
	LOG="$OUT/readguard.log"
}

# A LaTeX document citing one entry, built once in a first session.
tex_project() {
	need pdflatex bibtex
	printf '%s\n' '\documentclass{article}' '\begin{document}' 'Hello \cite{k}.' \
		'\bibliographystyle{plain}' '\bibliography{refs}' '\end{document}' >doc.tex
	printf '@book{k, author={A B}, title={T}, year={2000}, publisher={P}}\n' >refs.bib
	"$RG" run --log "$LOG" -- bash -c \
		'pdflatex -interaction=nonstopmode doc.tex && bibtex doc && pdflatex -interaction=nonstopmode doc.tex' \
		>/dev/null || fail "the first session's LaTeX run failed"
}

@test "t1019.01 pdflatex run again in a second session rewrites its log and PDF; the journal keeps them" {
	tex_project
	second_run 'pdflatex -interaction=nonstopmode doc.tex' doc.pdf
	assert_output --partial "$W/doc.log"
}

@test "t1019.02 bibtex run again in a second session rewrites its .blg and .bbl; the journal keeps them" {
	tex_project
	second_run 'bibtex doc' doc.bbl
	assert_output --partial "$W/doc.blg"
}

@test "t1019.03 a .log a person wrote is still refused" {
	printf 'This is my log of the week.\n' >notes.log
	assert_blind_refused notes.log
}

@test "t1019.04 a PDF with no .tex of its name beside it is still refused" {
	printf '%%PDF-1.5\n%%kept\n' >paper.pdf
	printf 'x\n' >other.tex
	assert_blind_refused paper.pdf
}

@test "t1019.05 a .bbl with no LaTeX .aux of its name beside it is still refused" {
	printf '\\begin{thebibliography}{1}\n\\end{thebibliography}\n' >doc.bbl
	printf 'not LaTeX\n' >doc.aux
	assert_blind_refused doc.bbl
}

@test "t1019.06 msgfmt run again in a second session replaces its .mo; the journal keeps it" {
	need msgfmt
	printf 'msgid "a"\nmsgstr "b"\n' >de.po
	"$RG" run --log "$LOG" -- msgfmt -o de.mo de.po || fail "the first session's msgfmt failed"
	second_run 'msgfmt -o de.mo de.po' de.mo
}

@test "t1019.07 a file named .mo that is no message catalog is still refused" {
	printf 'notes\n' >demo.mo
	assert_blind_refused demo.mo
}

@test "t1019.08 latexmk -g run again in a second session has pdflatex replace its recorder file" {
	tex_project
	need latexmk
	"$RG" run --log "$LOG" -- latexmk -pdf -interaction=nonstopmode doc.tex >/dev/null 2>&1 ||
		fail "the first session's latexmk failed"
	second_run 'latexmk -g -pdf -interaction=nonstopmode doc.tex' doc.fls
}

@test "t1019.09 an .fls a person wrote is still refused" {
	printf 'PWD is where I was\nINPUT x\n' >notes.fls
	assert_blind_refused notes.fls
}
