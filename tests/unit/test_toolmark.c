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
    CHECK_EQ_INT(rg_ndirmarks, 3);
    CHECK_EQ_STR(rg_dirmarks[0].name, "CACHEDIR.TAG");
    CHECK_EQ_STR(rg_dirmarks[1].name, "pyvenv.cfg");
    CHECK_EQ_STR(rg_dirmarks[2].name, "CMakeCache.txt");
    CHECK_EQ_STR(rg_dirmarks[2].unless, "CMakeLists.txt");
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

int main(void)
{
    RUN(cachedir_signature_begins_the_tag);
    RUN(pyvenv_python3_venv_writes_home_first);
    RUN(pyvenv_home_on_a_later_line_blanks_and_case_as_cpython_reads_them);
    RUN(pyvenv_without_a_home_key_is_no_venv);
    RUN(pyvenv_with_a_nul_byte_is_no_text);
    RUN(dirmarks_name_each_marker_once_within_the_head_bound);
    RUN(cmake_cache_begins_with_cmakes_first_line);
    RUN(sqlite_header_is_sixteen_bytes_with_its_nul);
    RUN(sqlite_companions_name_their_database);
    RUN(sqlite_companion_needs_a_name_before_its_suffix);
    return check_done();
}
