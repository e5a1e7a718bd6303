/* Unit tests for the directory markers of core/toolmark.c: the files whose
 * first bytes say a tool owns their directory (a cache tag, a virtual
 * environment's pyvenv.cfg, a build tree's caches), and which directory. */
#include <string.h>

#include "check.h"
#include "core/toolmark.h"

static bool venv(const char *s) { return rg_pyvenv_configures(s, strlen(s)); }

TEST(cachedir_signature_begins_the_tag)
{
    const char *tag = "Signature: 8a477f597d28d172789f06886806bc55\n# a tag\n";
    CHECK(rg_cachedir_signed(tag, strlen(tag)));
    CHECK(!rg_cachedir_signed(tag, 42)); /* cut short */
    const char *off = "Signature: 8a477f597d28d172789f06886806bc5X";
    CHECK(!rg_cachedir_signed(off, strlen(off)));
    const char *late = " Signature: 8a477f597d28d172789f06886806bc55";
    CHECK(!rg_cachedir_signed(late, strlen(late)));
}

TEST(pyvenv_python3_venv_writes_home_first)
{
    CHECK(venv("home = /usr/bin\ninclude-system-site-packages = false\nversion = "
               "3.11.2\n"));
}

TEST(pyvenv_home_on_a_later_line_blanks_and_case_as_cpython_reads_them)
{
    CHECK(venv("implementation = CPython\n  HOME\t=/opt/py/bin\n"));
    CHECK(venv("version_info = 3.12\r\nHome=/x\r\n"));
    CHECK(venv("home ="));
}

TEST(pyvenv_without_a_home_key_is_no_venv)
{
    CHECK(!venv(""));
    CHECK(!venv("version = 3.11.2\n"));
    CHECK(!venv("homes = /usr/bin\n"));
    CHECK(!venv("# home = /usr/bin\n"));
    CHECK(!venv("x home = /usr/bin\n"));
    CHECK(!venv("home /usr/bin\n"));
    CHECK(!venv("home")); /* cut before its '=' */
}

TEST(pyvenv_with_a_nul_byte_is_no_text)
{
    static const char bin[] = "home = /usr/bin\n\0junk";
    CHECK(!rg_pyvenv_configures(bin, sizeof bin - 1));
    CHECK(rg_pyvenv_configures(bin, 16)); /* the same bytes before the NUL */
}

TEST(dirmarks_name_each_marker_once_within_the_head_bound)
{
    CHECK_EQ_INT(rg_ndirmarks, 11);
    CHECK_EQ_STR(rg_dirmarks[0].name, "CACHEDIR.TAG");
    CHECK_EQ_STR(rg_dirmarks[1].name, "pyvenv.cfg");
    CHECK_EQ_STR(rg_dirmarks[2].name, "CMakeCache.txt");
    CHECK_EQ_STR(rg_dirmarks[2].unless, "CMakeLists.txt");
    CHECK_EQ_STR(rg_dirmarks[3].name, "PKG-INFO");
    CHECK_EQ_STR(rg_dirmarks[3].dir_suffix, ".egg-info");
    CHECK_EQ_STR(rg_dirmarks[4].name, ".gitignore");
    CHECK_EQ_STR(rg_dirmarks[5].name, ".buildinfo");
    CHECK_EQ_STR(rg_dirmarks[6].name, "CMakeCache.txt");
    CHECK_EQ_STR(rg_dirmarks[7].name, "cmake_install.cmake");
    CHECK_EQ_STR(rg_dirmarks[8].name, "CMakeCache.txt");
    CHECK_EQ_STR(rg_dirmarks[9].name, "index.html");
    CHECK_EQ_STR(rg_dirmarks[10].name, "build_params");
    for (size_t i = 0; i < rg_ndirmarks; i++) {
        CHECK(rg_dirmarks[i].head <= RG_DIRMARK_HEAD_MAX);
        CHECK(!strchr(rg_dirmarks[i].name, '/'));
        CHECK(!rg_dirmark_says(&rg_dirmarks[i], "", 0));
    }
    const char *sig = "Signature: 8a477f597d28d172789f06886806bc55";
    CHECK(rg_dirmark_says(&rg_dirmarks[0], sig, strlen(sig)));
    CHECK(!rg_dirmark_says(&rg_dirmarks[1], sig, strlen(sig)));
    CHECK(rg_dirmark_says(&rg_dirmarks[1], "home = /usr/bin\n", 16));
    CHECK(!rg_dirmark_says(&rg_dirmarks[0], "home = /usr/bin\n", 16));
}

TEST(egg_info_pkg_info_begins_with_its_metadata_version)
{
    const char *pkg = "Metadata-Version: 2.1\nName: mylib\nVersion: 0.1\n";
    CHECK(rg_egg_info(pkg, strlen(pkg)));
    CHECK(rg_dirmark_says(&rg_dirmarks[3], pkg, rg_dirmarks[3].head));
    CHECK(!rg_egg_info(pkg, 17)); /* cut short */
    CHECK(!rg_egg_info("Name: mylib\nMetadata-Version: 2.1\n", 33));
    CHECK(!rg_egg_info("metadata-version: 2.1\n", 22));
}

static bool fits(size_t i, const char *dir)
{
    return rg_dirmark_fits(&rg_dirmarks[i], dir, strlen(dir));
}

TEST(egg_info_marks_only_a_directory_named_for_it)
{
    CHECK(fits(3, "/p/mylib.egg-info"));
    CHECK(fits(3, "/p/src/my_lib.egg-info"));
    CHECK(!fits(3, "/p/mylib-0.1")); /* an unpacked sdist: PKG-INFO beside the sources */
    CHECK(!fits(3, "/p/.egg-info"));
    CHECK(!fits(3, ".egg-info"));
    CHECK(!fits(3, "/p/mylib.egg-info.old"));
    CHECK(fits(0, "/p/anything"));
    CHECK(fits(0, ""));
}

TEST(in_source_cmake_cache_marks_only_its_tools_directories)
{
    CHECK(fits(6, "/p/CMakeFiles"));
    CHECK(!fits(6, "/p/MyCMakeFiles"));
    CHECK(!fits(6, "/p/CMakeFiles/sub"));
    CHECK_EQ_INT(rg_dirmarks[6].up, 1);
    CHECK(fits(7, "/p/sub/CMakeFiles"));
    CHECK_EQ_INT(rg_dirmarks[7].up, 1);
    const char *install = "# Install script for directory: /p/sub\n";
    CHECK(rg_dirmark_says(&rg_dirmarks[7], install, strlen(install)));
    CHECK(!rg_dirmark_says(&rg_dirmarks[7], install, 20)); /* cut short */
    CHECK(fits(8, "/p/Testing/Temporary"));
    CHECK(!fits(8, "/p/Testing"));
    CHECK(!fits(8, "/p/MyTesting/Temporary"));
    CHECK_EQ_INT(rg_dirmarks[8].up, 2);
    CHECK_EQ_STR(rg_dirmarks[6].unless, "");
    CHECK_EQ_INT(rg_dirmarks[2].up, 0);
}

static bool all(const char *s) { return rg_gitignore_all(s, strlen(s)); }

TEST(gitignore_all_is_a_comment_then_only_star)
{
    CHECK(all("# Created by coverage.py\n*\n"));
    CHECK(all("# Created by pytest automatically.\n*\n"));
    CHECK(all("# made by a tool\n\n# keep out\n*  \n"));
    CHECK(all("# no newline at the end\n*"));
    const char *cov = "# Created by coverage.py\n*\n";
    CHECK(rg_dirmark_says(&rg_dirmarks[4], cov, strlen(cov)));
}

TEST(gitignore_with_any_other_rule_or_no_comment_marks_nothing)
{
    CHECK(!all("*\n"));                  /* as a person writes it */
    CHECK(!all("# tool\n*\n!keep.c\n")); /* takes a name back */
    CHECK(!all("# tool\n*.o\n"));
    CHECK(!all("# tool\n/*\n"));
    CHECK(!all("# tool\n*\t\n")); /* git keeps the tab: another pattern */
    CHECK(!all("# tool\n"));
    CHECK(!all(""));
    static const char nul[] = "# tool\n*\n\0";
    CHECK(!rg_gitignore_all(nul, sizeof nul - 1));
    /* A head the size of the bound may be a longer file cut short. */
    char big[RG_DIRMARK_HEAD_MAX];
    memset(big, '\n', sizeof big);
    memcpy(big, "# tool\n*\n", 9);
    CHECK(rg_gitignore_all(big, sizeof big));
    CHECK(!rg_dirmark_says(&rg_dirmarks[4], big, sizeof big));
    CHECK(rg_dirmark_says(&rg_dirmarks[4], big, sizeof big - 1));
}

TEST(module_build_params_mark_only_a_directory_named_build)
{
    const struct rg_dirmark *m = &rg_dirmarks[10];
    static const char params[] = "do{ my $x = [\n       {\n         'ARGV' => []\n";
    CHECK(rg_dirmark_says(m, params, sizeof params - 1));
    CHECK(!rg_dirmark_says(m, "verbose = 1\n", 12));
    CHECK(!rg_dirmark_says(m, params, 8)); /* cut short */
    CHECK(rg_dirmark_fits(m, "/p/_build", 9));
    CHECK(!rg_dirmark_fits(m, "/p/my_build", 11));
    CHECK(!rg_dirmark_fits(m, "/p/_build/x", 11));
}

TEST(sphinx_buildinfo_begins_with_its_version_line)
{
    const char *info = "# Sphinx build info version 1\n# This file hashes the configuration\n";
    CHECK(rg_sphinx_buildinfo(info, strlen(info)));
    CHECK(rg_dirmark_says(&rg_dirmarks[5], info, rg_dirmarks[5].head));
    CHECK(!rg_sphinx_buildinfo(info, 20)); /* cut short */
    CHECK(!rg_sphinx_buildinfo("# sphinx build info version 1\n", 30));
}

TEST(cmake_cache_begins_with_cmakes_first_line)
{
    const char *cache = "# This is the CMakeCache file.\n# For build in directory: /p/b\n";
    CHECK(rg_cmake_cache(cache, strlen(cache)));
    CHECK(rg_dirmark_says(&rg_dirmarks[2], cache, rg_dirmarks[2].head));
    CHECK(!rg_cmake_cache(cache, 29)); /* cut short */
    const char *late = "\n# This is the CMakeCache file.";
    CHECK(!rg_cmake_cache(late, strlen(late)));
    const char *other = "# This is the CMakeCache file!";
    CHECK(!rg_cmake_cache(other, strlen(other)));
}

int main(void)
{
    RUN(cachedir_signature_begins_the_tag);
    RUN(module_build_params_mark_only_a_directory_named_build);
    RUN(pyvenv_python3_venv_writes_home_first);
    RUN(pyvenv_home_on_a_later_line_blanks_and_case_as_cpython_reads_them);
    RUN(pyvenv_without_a_home_key_is_no_venv);
    RUN(pyvenv_with_a_nul_byte_is_no_text);
    RUN(dirmarks_name_each_marker_once_within_the_head_bound);
    RUN(egg_info_pkg_info_begins_with_its_metadata_version);
    RUN(egg_info_marks_only_a_directory_named_for_it);
    RUN(gitignore_all_is_a_comment_then_only_star);
    RUN(gitignore_with_any_other_rule_or_no_comment_marks_nothing);
    RUN(sphinx_buildinfo_begins_with_its_version_line);
    RUN(cmake_cache_begins_with_cmakes_first_line);
    RUN(in_source_cmake_cache_marks_only_its_tools_directories);
    return check_done();
}
