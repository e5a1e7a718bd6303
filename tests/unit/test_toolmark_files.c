/* Unit tests for single generated files in core/toolmark.c, told by name
 * and first bytes: wheels, message catalogs, gcov data, Perl's MYMETA,
 * Sphinx's doctrees, SQLite databases and their companions, compile_commands. */
#include <string.h>

#include "check.h"
#include "core/toolmark.h"

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
    RUN(compdb_as_bear_cmake_and_meson_begin_it);
    RUN(other_json_or_name_is_no_compdb);
    RUN(perl_mymeta_is_cpan_metas_dump_abstract_first);
    RUN(mymeta_a_person_writes_is_no_perl_mymeta);
    RUN(gcov_data_is_named_for_its_own_magic);
    RUN(gcov_data_under_the_other_name_or_cut_short_is_no_gcov_data);
    RUN(wheel_names_have_pep_427s_five_or_six_fields);
    RUN(wheel_head_is_a_zips_local_header);
    RUN(mo_names_end_in_mo_or_gmo);
    RUN(mo_head_is_gnus_magic_in_either_byte_order);
    RUN(doctree_is_a_pickle_named_dot_doctree);
    RUN(sqlite_header_is_sixteen_bytes_with_its_nul);
    RUN(sqlite_companions_name_their_database);
    RUN(sqlite_companion_needs_a_name_before_its_suffix);
    return check_done();
}
