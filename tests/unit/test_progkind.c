/* rg_elf_look and friends: what loads a program, from its first bytes. */
#include "core/progkind.h"
#include <elf.h>
#include <string.h>

#include "check.h"
static unsigned char img[4096];

/* A 64-bit x86-64 image with the given program headers after the ELF header. */
static size_t make64(const Elf64_Phdr *ph, size_t nph)
{
    memset(img, 0, sizeof img);
    Elf64_Ehdr eh = {0};
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_type = ET_DYN;
    eh.e_machine = EM_X86_64;
    eh.e_phoff = sizeof eh;
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = (uint16_t)nph;
    memcpy(img, &eh, sizeof eh);
    memcpy(img + sizeof eh, ph, nph * sizeof *ph);
    return sizeof img;
}

TEST(a_dynamic_program_points_at_its_interpreter)
{
    Elf64_Phdr ph[] = {{.p_type = PT_PHDR},
                       {.p_type = PT_INTERP, .p_offset = 0x300, .p_filesz = 28}};
    size_t n = make64(ph, 2);
    memcpy(img + 0x300, "/lib64/ld-linux-x86-64.so.2", 28);
    struct rg_elf_look l = rg_elf_look(img, n);
    CHECK_EQ_INT(l.kind, RG_PROG_GLIBC);
    CHECK_EQ_INT(l.interp_off, 0x300);
    CHECK_EQ_INT(l.interp_len, 28);
#if defined(__x86_64__)
    CHECK(l.native);
#endif
}

TEST(no_interpreter_is_static)
{
    Elf64_Phdr ph[] = {{.p_type = PT_LOAD}};
    CHECK_EQ_INT(rg_elf_look(img, make64(ph, 1)).kind, RG_PROG_STATIC);
}

TEST(a_go_build_id_note_is_go_whatever_the_interpreter)
{
    Elf64_Phdr ph[] = {{.p_type = PT_INTERP, .p_offset = 0x300, .p_filesz = 28},
                       {.p_type = PT_NOTE, .p_offset = 0x400, .p_filesz = 12 + 4 + 8}};
    size_t n = make64(ph, 2);
    uint32_t hdr[3] = {4, 8, 4}; /* as Go writes it: "Go\0\0" */
    memcpy(img + 0x400, hdr, sizeof hdr);
    memcpy(img + 0x40c, "Go\0\0buildid!", 12);
    CHECK_EQ_INT(rg_elf_look(img, n).kind, RG_PROG_GO);
}

TEST(a_note_that_overruns_is_not_go)
{
    Elf64_Phdr ph[] = {{.p_type = PT_NOTE, .p_offset = 0x400, .p_filesz = 16}};
    size_t n = make64(ph, 1);
    uint32_t hdr[3] = {3, 0x7fffffff, 4};
    memcpy(img + 0x400, hdr, sizeof hdr);
    memcpy(img + 0x40c, "Go", 3);
    CHECK_EQ_INT(rg_elf_look(img, n).kind, RG_PROG_STATIC);
}

TEST(program_headers_beyond_the_buffer_cannot_be_told)
{
    Elf64_Phdr ph[] = {{.p_type = PT_INTERP}};
    make64(ph, 1);
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    eh.e_phoff = 1u << 20;
    memcpy(img, &eh, sizeof eh);
    CHECK_EQ_INT(rg_elf_look(img, sizeof img).kind, RG_PROG_UNKNOWN);
    CHECK_EQ_INT(rg_elf_look(img, 10).kind, RG_PROG_UNKNOWN);
}

TEST(a_script_and_garbage)
{
    CHECK_EQ_INT(rg_elf_look((const unsigned char *)"#!/bin/sh\n", 10).kind, RG_PROG_SCRIPT);
    CHECK_EQ_INT(rg_elf_look((const unsigned char *)"hello", 5).kind, RG_PROG_UNKNOWN);
    CHECK_EQ_INT(rg_elf_look((const unsigned char *)"", 0).kind, RG_PROG_UNKNOWN);
}

TEST(interpreters_are_told_apart_by_file_name)
{
    CHECK_EQ_INT(rg_interp_kind("/lib64/ld-linux-x86-64.so.2"), RG_PROG_GLIBC);
    CHECK_EQ_INT(rg_interp_kind("/lib/ld-linux.so.2"), RG_PROG_GLIBC);
    CHECK_EQ_INT(rg_interp_kind("/lib/ld-linux-aarch64.so.1"), RG_PROG_GLIBC);
    CHECK_EQ_INT(rg_interp_kind("/lib64/ld64.so.2"), RG_PROG_GLIBC);
    CHECK_EQ_INT(rg_interp_kind("/nix/store/x-glibc/lib/ld-linux-x86-64.so.2"), RG_PROG_GLIBC);
    CHECK_EQ_INT(rg_interp_kind("/lib/ld-musl-x86_64.so.1"), RG_PROG_MUSL);
    CHECK_EQ_INT(rg_interp_kind("/system/bin/linker64"), RG_PROG_OTHER_LD);
    CHECK_EQ_INT(rg_interp_kind(""), RG_PROG_OTHER_LD);
}

TEST(script_interpreter_is_the_first_word)
{
    char out[64];
    const char *s = "#! /usr/bin/env python3\n";
    CHECK(rg_script_interp((const unsigned char *)s, strlen(s), out, sizeof out));
    CHECK_EQ_STR(out, "/usr/bin/env");
    const char *cut = "#!/usr/bin/some-very-long";
    CHECK(!rg_script_interp((const unsigned char *)cut, strlen(cut), out, sizeof out));
    CHECK(!rg_script_interp((const unsigned char *)"#!\n", 3, out, sizeof out));
    const char *longer = "#!/aaaaaaaaaaaaaaaa\n";
    CHECK(!rg_script_interp((const unsigned char *)longer, strlen(longer), out, 8));
}

int main(void)
{
    RUN(a_dynamic_program_points_at_its_interpreter);
    RUN(no_interpreter_is_static);
    RUN(a_go_build_id_note_is_go_whatever_the_interpreter);
    RUN(a_note_that_overruns_is_not_go);
    RUN(program_headers_beyond_the_buffer_cannot_be_told);
    RUN(a_script_and_garbage);
    RUN(interpreters_are_told_apart_by_file_name);
    RUN(script_interpreter_is_the_first_word);
    return check_done();
}
