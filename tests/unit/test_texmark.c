/* Unit tests for core/texmark.c: a TeX engine's transcript by its banner,
 * and which outputs are told by the file of their name beside them. */
#include <string.h>

#include "check.h"
#include "core/texmark.h"
static bool transcript(const char *name, const char *s)
{
    return rg_tex_transcript(name, s, strlen(s));
}

TEST(transcript_is_a_log_or_blg_with_an_engines_banner)
{
    CHECK(transcript("doc.log", "This is pdfTeX, Version 3.141592653-2.6-1.40.24 (TeX Live)"));
    CHECK(transcript("doc.log", "This is XeTeX, Version 3.141592653-2.6-0.999994"));
    CHECK(transcript("doc.log", "This is LuaHBTeX, Version 1.15.0"));
    CHECK(transcript("doc.log", "This is e-TeX, Version 3.141592653-2.6"));
    CHECK(transcript("dir/doc.blg", "This is BibTeX, Version 0.99d (TeX Live 2022/Debian)\n"));
}

TEST(transcript_needs_its_name_and_the_whole_banner)
{
    const char *banner = "This is pdfTeX, Version 3.14";
    CHECK(!transcript("doc.txt", banner));
    CHECK(!transcript(".log", banner));
    CHECK(!transcript("doc.log", "This is my log of the week."));
    CHECK(!transcript("doc.log", "This is TeX, Versio")); /* cut short */
    CHECK(!transcript("doc.log", "This is not TeX, Version 3"));
    CHECK(!transcript("doc.log", "this is pdfTeX, Version 3"));
}

TEST(recorder_file_is_an_fls_of_pwd_then_input_or_output)
{
    CHECK(transcript("doc.fls", "PWD /p\nINPUT /etc/texmf/web2c/texmf.cnf\n"));
    CHECK(transcript("doc.fls", "PWD /p\nOUTPUT doc.log\n"));
    CHECK(!transcript("doc.fls", "PWD /p\n"));
    CHECK(!transcript("doc.fls", "PWD p\nINPUT x\n"));
    CHECK(!transcript("doc.fls", "my flows\nINPUT x\n"));
    CHECK(!transcript("doc.txt", "PWD /p\nINPUT x\n"));
}

TEST(pdf_is_told_by_its_head_and_the_tex_beside_it)
{
    size_t stem = 0;
    const struct rg_tex_output *o = rg_tex_output("/p/doc.pdf", &stem);
    CHECK(o && stem == strlen("/p/doc"));
    CHECK(o && strcmp(o->sibling, ".tex") == 0);
    CHECK(o && rg_tex_output_head(o, "%PDF-1.5\n", 9));
    CHECK(o && !rg_tex_output_head(o, "%PDF", 4));
    CHECK(o && rg_tex_sibling_head(o, "x", 1));
    CHECK(o && !rg_tex_sibling_head(o, "", 0)); /* an empty .tex */
}

TEST(bbl_is_told_by_latexs_aux_beside_it)
{
    size_t stem = 0;
    const struct rg_tex_output *o = rg_tex_output("doc.bbl", &stem);
    CHECK(o && stem == 3);
    CHECK(o && strcmp(o->sibling, ".aux") == 0);
    CHECK(o && rg_tex_output_head(o, "", 0));
    CHECK(o && rg_tex_sibling_head(o, "\\relax \n\\citation{k}\n", 20));
    CHECK(o && !rg_tex_sibling_head(o, "not LaTeX\n", 10));
}

TEST(other_names_are_no_tex_output)
{
    size_t stem = 0;
    CHECK(!rg_tex_output("/p/.pdf", &stem));
    CHECK(!rg_tex_output("/p/doc.pdf.txt", &stem));
    CHECK(!rg_tex_output("/p/doc.tex", &stem));
}

int main(void)
{
    RUN(transcript_is_a_log_or_blg_with_an_engines_banner);
    RUN(transcript_needs_its_name_and_the_whole_banner);
    RUN(recorder_file_is_an_fls_of_pwd_then_input_or_output);
    RUN(pdf_is_told_by_its_head_and_the_tex_beside_it);
    RUN(bbl_is_told_by_latexs_aux_beside_it);
    RUN(other_names_are_no_tex_output);
    return check_done();
}
