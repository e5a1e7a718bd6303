/* Unit tests for core/toolmark.c: what a cache tag, a virtual environment's
 * pyvenv.cfg and an SQLite database look like in their first bytes, and
 * which names are an SQLite database's companions. */
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

TEST(wheel_names_have_pep_427s_five_or_six_fields)
{
    CHECK(rg_wheel_name("mylib-0.1-py3-none-any.whl"));
    CHECK(rg_wheel_name("numpy-1.26.4-1-cp311-cp311-manylinux_2_17_x86_64.whl"));
    CHECK(!rg_wheel_name("mylib.whl"));
    CHECK(!rg_wheel_name("mylib-0.1.whl"));
    CHECK(!rg_wheel_name("a-b-c-d-e-f-g.whl"));
    CHECK(!rg_wheel_name("mylib--0.1-py3-none-any.whl"));
    CHECK(!rg_wheel_name("-mylib-0.1-py3-none.whl"));
    CHECK(!rg_wheel_name("mylib-0.1-py3-none-any-.whl"));
    CHECK(!rg_wheel_name("mylib-0.1-py3-none-any.whl.txt"));
    CHECK(!rg_wheel_name(".whl"));
}

TEST(mo_names_end_in_mo_or_gmo)
{
    CHECK(rg_mo_name("de.mo"));
    CHECK(rg_mo_name("po/de.gmo"));
    CHECK(!rg_mo_name(".mo"));
    CHECK(!rg_mo_name(".gmo"));
    CHECK(!rg_mo_name("demo"));
    CHECK(!rg_mo_name("de.mo.txt"));
}

TEST(mo_head_is_gnus_magic_in_either_byte_order)
{
    CHECK(rg_mo_head("\xde\x12\x04\x95\0\0", 6)); /* little-endian */
    CHECK(rg_mo_head("\x95\x04\x12\xde", 4));     /* big-endian */
    CHECK(!rg_mo_head("\xde\x12\x04", 3));        /* cut short */
    CHECK(!rg_mo_head("msgid \"\"", 8));
}

TEST(gcov_data_is_named_for_its_own_magic)
{
    CHECK(rg_gcov_data("main.gcno", "oncg*22B", 8)); /* little-endian */
    CHECK(rg_gcov_data("obj/main.gcda", "adcg*22B", 8));
    CHECK(rg_gcov_data("main.gcno", "gcnoB22*", 8)); /* big-endian */
    CHECK(rg_gcov_data("main.gcda", "gcda", 4));
}

TEST(gcov_data_under_the_other_name_or_cut_short_is_no_gcov_data)
{
    CHECK(!rg_gcov_data("main.gcda", "oncg*22B", 8));
    CHECK(!rg_gcov_data("main.gcno", "adcg*22B", 8));
    CHECK(!rg_gcov_data("main.gcno", "onc", 3));
    CHECK(!rg_gcov_data(".gcno", "oncg", 4));
    CHECK(!rg_gcov_data("maingcno", "oncg", 4));
    CHECK(!rg_gcov_data("main.gcno.txt", "oncg", 4));
}

TEST(perl_mymeta_is_cpan_metas_dump_abstract_first)
{
    static const char json[] = "{\n   \"abstract\" : \"unknown\",\n   \"author\" : [\n";
    static const char yml[] = "---\nabstract: 'A tiny module'\nauthor:\n";
    CHECK(rg_perl_mymeta("MYMETA.json", json, sizeof json - 1));
    CHECK(rg_perl_mymeta("MYMETA.yml", yml, sizeof yml - 1));
    CHECK(!rg_perl_mymeta("META.json", json, sizeof json - 1));
    CHECK(!rg_perl_mymeta("MYMETA.yml", json, sizeof json - 1));
    CHECK(!rg_perl_mymeta("MYMETA.json", json, 10)); /* cut short */
}

TEST(mymeta_a_person_writes_is_no_perl_mymeta)
{
    static const char json[] = "{\"abstract\": \"mine\", \"name\": \"Foo\"}\n";
    static const char yml[] = "---\nname: Foo\nabstract: mine\n";
    CHECK(!rg_perl_mymeta("MYMETA.json", json, sizeof json - 1));
    CHECK(!rg_perl_mymeta("MYMETA.yml", yml, sizeof yml - 1));
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

TEST(wheel_head_is_a_zips_local_header)
{
    CHECK(rg_wheel_head("PK\3\4\24\0", 6));
    CHECK(!rg_wheel_head("PK\3", 3)); /* cut short */
    CHECK(!rg_wheel_head("PK\5\6", 4));
    CHECK(!rg_wheel_head("# a wheel, honest\n", 18));
}

TEST(doctree_is_a_pickle_named_dot_doctree)
{
    CHECK(rg_doctree_name("index.doctree"));
    CHECK(rg_doctree_name("api.module.doctree"));
    CHECK(!rg_doctree_name(".doctree"));
    CHECK(!rg_doctree_name("index.doctree.bak"));
    CHECK(!rg_doctree_name("index.rst"));
    CHECK(rg_pickle_head("\x80\x05\x95", 3));
    CHECK(rg_pickle_head("\x80\x02", 2));
    CHECK(!rg_pickle_head("\x80\x01", 2));
    CHECK(!rg_pickle_head("\x80\x06", 2));
    CHECK(!rg_pickle_head("\x80", 1)); /* cut short */
    CHECK(!rg_pickle_head("<document", 9));
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

static bool cmake_wrote(const char *name, const char *s)
{
    return rg_cmake_wrote(name, s, strlen(s));
}

TEST(cmake_outputs_are_told_by_name_and_cmakes_first_line)
{
    CHECK(rg_cmake_output("Makefile"));
    CHECK(rg_cmake_output("cmake_install.cmake"));
    CHECK(rg_cmake_output("CTestTestfile.cmake"));
    CHECK(rg_cmake_output("build.ninja"));
    CHECK(!rg_cmake_output("makefile"));
    CHECK(!rg_cmake_output("CMakeLists.txt"));
    CHECK(cmake_wrote("Makefile", "# CMAKE generated file: DO NOT EDIT!\n# Generated by\n"));
    CHECK(!cmake_wrote("Makefile", "# CMAKE generated file: DO NOT EDIT!")); /* cut short */
    CHECK(!cmake_wrote("Makefile", "all:\n\tcc main.c\n"));
    CHECK(cmake_wrote("build.ninja", "# CMAKE generated file: DO NOT EDIT!\n# Generated by\n"));
    CHECK(!cmake_wrote("build.ninja", "rule cc\n"));
    CHECK(cmake_wrote("cmake_install.cmake", "# Install script for directory: /p\n"));
    CHECK(cmake_wrote("CTestTestfile.cmake", "# CMake generated Testfile for \n"));
    CHECK(!cmake_wrote("CTestTestfile.cmake", "# Install script for directory: /p\n"));
    CHECK(!cmake_wrote("notes", "# CMAKE generated file: DO NOT EDIT!\n"));
}

TEST(cmake_install_manifest_is_a_list_of_absolute_paths)
{
    static const char list[] = "/usr/local/bin/demo\n/usr/local/lib/libdemo.a";
    CHECK(rg_cmake_manifest("install_manifest.txt", list, strlen(list)));
    CHECK(!rg_cmake_manifest("install_manifest.txt", "demo\n", 5));
    CHECK(!rg_cmake_manifest("install_manifest.txt", "", 0));
    CHECK(!rg_cmake_manifest("manifest.txt", list, strlen(list)));
}

static bool wrote(const char *name, const char *s)
{
    return rg_configure_wrote(name, s, strlen(s));
}

static const char config_log[] =
    "This file contains any messages produced by compilers while\n"
    "running configure, to aid debugging if configure makes a mistake.\n"
    "\nIt was created by demo configure 1.0, which was\n";

TEST(configure_outputs_are_config_log_and_config_status_by_name)
{
    CHECK(rg_configure_output("config.log"));
    CHECK(rg_configure_output("config.status"));
    CHECK(rg_configure_output("configure"));
    CHECK(rg_configure_output("libtool"));
    CHECK(rg_configure_output("stamp-h1"));
    CHECK(rg_configure_output("stamp-h12"));
    CHECK(!rg_configure_output("stamp-h"));
    CHECK(!rg_configure_output("stamp-hx"));
    CHECK(rg_configure_output("config.h.in"));
    CHECK(rg_configure_output("version.h.in"));
    CHECK(!rg_configure_output(".in"));
    CHECK(!rg_configure_output("config.h"));
    CHECK(!rg_configure_output("configure.ac"));
    CHECK(!rg_configure_output("my-config.log"));
    CHECK(!rg_configure_output("config.log.old"));
}

TEST(config_log_begins_with_configures_two_lines)
{
    CHECK(sizeof config_log - 1 > RG_CONFIGURE_HEAD);
    CHECK(rg_configure_wrote("config.log", config_log, RG_CONFIGURE_HEAD));
    CHECK(!rg_configure_wrote("config.log", config_log, 100)); /* cut short */
    CHECK(!wrote("config.log", "This file contains any messages produced by compilers while\n"));
    CHECK(!wrote("config.log", "build notes\n"));
    CHECK(!rg_configure_wrote("notes.log", config_log, RG_CONFIGURE_HEAD));
}

TEST(config_status_is_a_script_configure_says_it_generated)
{
    CHECK(wrote("config.status", "#! /bin/sh\n# Generated by configure.\n# Run this file\n"));
    CHECK(wrote("config.status", "#! /bin/bash\n# Generated by configure.\n"));
    CHECK(!wrote("config.status", "#! /bin/sh\n# Generated by configure."));     /* cut short */
    CHECK(!wrote("config.status", "# Generated by configure.\n"));               /* no "#!" line */
    CHECK(!wrote("config.status", "#! /bin/sh\n\n# Generated by configure.\n")); /* third line */
    CHECK(!wrote("config.status", "#! /bin/sh\n# Generated by hand.\n"));
    CHECK(!wrote("config.log", "#! /bin/sh\n# Generated by configure.\n"));
    CHECK(!wrote("config.status", ""));
}

TEST(configure_is_the_script_autoconf_says_it_generated)
{
    static const char script[] =
        "#! /bin/sh\n# Guess values for system-dependent variables and create Makefiles.\n"
        "# Generated by GNU Autoconf 2.71 for demo 1.0.\n";
    CHECK(sizeof script - 1 <= RG_CONFIGURE_HEAD);
    CHECK(wrote("configure", script));
    CHECK(!rg_configure_wrote("configure", script, 100)); /* cut short */
    CHECK(!wrote("configure", "#!/bin/sh\n# configure: hand-written, as ffmpeg's is\n"));
    CHECK(!wrote("configure", script + 11)); /* no "#!" line */
    CHECK(!wrote("configure.sh", script));
}

TEST(libtool_is_the_script_config_status_says_it_generated)
{
    CHECK(
        wrote("libtool", "#! /bin/bash\n# Generated automatically by config.status (demo) 1.0\n"));
    CHECK(!wrote("libtool", "#! /bin/bash\n# Generated automatically by config.status"));
    CHECK(!wrote("libtool", "# Generated automatically by config.status (demo) 1.0\n"));
    CHECK(!wrote("libtool", "#!/bin/sh\n# libtool: a wrapper written by hand\n"));
    CHECK(!wrote("libtool.sh", "#! /bin/bash\n# Generated automatically by config.status (d)\n"));
}

TEST(config_h_in_is_the_template_autoheader_says_it_generated)
{
    CHECK(
        wrote("config.h.in", "/* config.h.in.  Generated from configure.ac by autoheader.  */\n"));
    CHECK(wrote("cfg.h.in", "/* cfg.h.in.  Generated from configure.in by autoheader.  */\n\n"));
    CHECK(wrote("config.h.in",
                "/* src/config.h.in.  Generated from configure.ac by autoheader.  */\n"));
    CHECK(!wrote("config.h.in",
                 "/* myconfig.h.in.  Generated from configure.ac by autoheader.  */\n"));
    CHECK(
        !wrote("config.h.in", "/* config.h.in   Generated from configure.ac by autoheader.  */\n"));
    CHECK(!wrote("config.h.in", "/* config.h.in.  Generated from configure.ac by autoheader.  */"));
    CHECK(!wrote("config.h.in", "/* config.h.in.  Written by hand.  */\n"));
    CHECK(
        !wrote("config.h.in", "/* other.h.in.  Generated from configure.ac by autoheader.  */\n"));
    CHECK(!wrote("config.h.in", "/* config.h.in.  Generated from configure.ac by hand.  */\n"));
    CHECK(!wrote("Makefile.in", "# Makefile.in generated by automake 1.16.5 from Makefile.am.\n"));
    CHECK(!wrote("config.h", "/* config.h.  Generated from config.h.in by configure.  */\n"));
}

TEST(stamp_h_says_which_header_it_stamps)
{
    CHECK(wrote("stamp-h1", "timestamp for config.h\n"));
    CHECK(!wrote("stamp-h1", "notes\n"));
    CHECK(!wrote("stamp-hx", "timestamp for config.h\n"));
}

TEST(sqlite_header_is_sixteen_bytes_with_its_nul)
{
    static const char db[] = "SQLite format 3\0\x10\x00\x01\x01";
    CHECK(rg_sqlite_header(db, sizeof db - 1));
    CHECK(rg_sqlite_header(db, 16));
    CHECK(!rg_sqlite_header(db, 15));
    CHECK(!rg_sqlite_header("SQLite format 3 and more", 24));
    CHECK(!rg_sqlite_header("SQLite format 2\0", 16));
}

TEST(sqlite_companions_name_their_database)
{
    CHECK_EQ_INT(rg_sqlite_companion("/p/app.db-wal"), strlen("/p/app.db"));
    CHECK_EQ_INT(rg_sqlite_companion("/p/app.db-shm"), strlen("/p/app.db"));
    CHECK_EQ_INT(rg_sqlite_companion("/p/app.db-journal"), strlen("/p/app.db"));
    CHECK_EQ_INT(rg_sqlite_companion("/p/x-wal"), strlen("/p/x"));
}

TEST(sqlite_companion_needs_a_name_before_its_suffix)
{
    CHECK_EQ_INT(rg_sqlite_companion("/p/-wal"), 0);
    CHECK_EQ_INT(rg_sqlite_companion("-wal"), 0);
    CHECK_EQ_INT(rg_sqlite_companion("/p/app.db"), 0);
    CHECK_EQ_INT(rg_sqlite_companion("/p/app.db-wal.bak"), 0);
    CHECK_EQ_INT(rg_sqlite_companion("/p/app.dbwal"), 0);
    CHECK_EQ_INT(rg_sqlite_companion(""), 0);
}

static bool compdb(const char *name, const char *s) { return rg_compdb(name, s, strlen(s)); }

TEST(compdb_as_bear_cmake_and_meson_begin_it)
{
    CHECK(compdb("compile_commands.json", "[\n  {\n    \"arguments\": [\n"));
    CHECK(compdb("compile_commands.json", "[\n{\n  \"directory\": \"/src/build\",\n"));
    CHECK(compdb("compile_commands.json", "[\r\n\t{ \"command\": \"cc -c a.c\",\n"));
    CHECK(compdb("compile_commands.json", "[]\n"));
}

TEST(other_json_or_name_is_no_compdb)
{
    CHECK(!compdb("compile_commands.json", "{\"note\": \"kept by hand\"}\n"));
    CHECK(!compdb("compile_commands.json", "[\n  {\n    \"name\": \"x\"\n"));
    CHECK(!compdb("compile_commands.json", "[\n  {\n    \"dir"));
    CHECK(!compdb("compile_commands.json", ""));
    CHECK(!compdb("commands.json", "[\n{\n  \"directory\": \"/src\",\n"));
}

int main(void)
{
    RUN(cachedir_signature_begins_the_tag);
    RUN(compdb_as_bear_cmake_and_meson_begin_it);
    RUN(other_json_or_name_is_no_compdb);
    RUN(perl_mymeta_is_cpan_metas_dump_abstract_first);
    RUN(mymeta_a_person_writes_is_no_perl_mymeta);
    RUN(module_build_params_mark_only_a_directory_named_build);
    RUN(gcov_data_is_named_for_its_own_magic);
    RUN(gcov_data_under_the_other_name_or_cut_short_is_no_gcov_data);
    RUN(pyvenv_python3_venv_writes_home_first);
    RUN(pyvenv_home_on_a_later_line_blanks_and_case_as_cpython_reads_them);
    RUN(pyvenv_without_a_home_key_is_no_venv);
    RUN(pyvenv_with_a_nul_byte_is_no_text);
    RUN(dirmarks_name_each_marker_once_within_the_head_bound);
    RUN(egg_info_pkg_info_begins_with_its_metadata_version);
    RUN(egg_info_marks_only_a_directory_named_for_it);
    RUN(gitignore_all_is_a_comment_then_only_star);
    RUN(gitignore_with_any_other_rule_or_no_comment_marks_nothing);
    RUN(wheel_names_have_pep_427s_five_or_six_fields);
    RUN(wheel_head_is_a_zips_local_header);
    RUN(mo_names_end_in_mo_or_gmo);
    RUN(mo_head_is_gnus_magic_in_either_byte_order);
    RUN(doctree_is_a_pickle_named_dot_doctree);
    RUN(sphinx_buildinfo_begins_with_its_version_line);
    RUN(cmake_cache_begins_with_cmakes_first_line);
    RUN(in_source_cmake_cache_marks_only_its_tools_directories);
    RUN(cmake_outputs_are_told_by_name_and_cmakes_first_line);
    RUN(cmake_install_manifest_is_a_list_of_absolute_paths);
    RUN(configure_outputs_are_config_log_and_config_status_by_name);
    RUN(config_log_begins_with_configures_two_lines);
    RUN(config_status_is_a_script_configure_says_it_generated);
    RUN(configure_is_the_script_autoconf_says_it_generated);
    RUN(libtool_is_the_script_config_status_says_it_generated);
    RUN(config_h_in_is_the_template_autoheader_says_it_generated);
    RUN(stamp_h_says_which_header_it_stamps);
    RUN(sqlite_header_is_sixteen_bytes_with_its_nul);
    RUN(sqlite_companions_name_their_database);
    RUN(sqlite_companion_needs_a_name_before_its_suffix);
    return check_done();
}
