/* What loads a program, read from the first bytes of its file: the ELF
 * interpreter (PT_INTERP) names the libc whose dynamic linker maps it, and so
 * which build of the shim, if any, it can be handed. Pure: works on a buffer
 * the caller read, allocates nothing, touches no state (the exec hooks run it
 * in vfork children). */
#ifndef RG_PROGKIND_H
#define RG_PROGKIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rg_prog {
    RG_PROG_UNKNOWN = 0, /* not read, or not a format readguard knows (left as before) */
    RG_PROG_GLIBC,       /* dynamically linked against glibc (ld-linux*, ld64.so*) */
    RG_PROG_MUSL,        /* dynamically linked against musl (ld-musl-*) */
    RG_PROG_OTHER_LD,    /* an interpreter that is neither: no shim can be handed to it */
    RG_PROG_STATIC,      /* no interpreter: LD_PRELOAD is never read */
    RG_PROG_GO,          /* built by Go: makes its system calls itself */
    RG_PROG_SETID,       /* setuid or setgid: the loader ignores LD_PRELOAD */
    RG_PROG_SCRIPT,      /* "#!": what counts is its interpreter */
};

/* What the first bytes of a program say. interp_off/interp_len locate the
 * PT_INTERP string in the file (it may lie beyond the bytes read). */
struct rg_elf_look {
    enum rg_prog kind; /* UNKNOWN, STATIC, GO, SCRIPT, or GLIBC for "has an interpreter" */
    bool native;       /* of this build's ELF class and machine */
    uint64_t interp_off;
    uint64_t interp_len;
};

/* Reads the ELF header, program headers and Go's build-id note from buf (the
 * first n bytes of the file). A dynamic program comes back as RG_PROG_GLIBC
 * with interp_* set: the interpreter's name decides (rg_interp_kind). */
struct rg_elf_look rg_elf_look(const unsigned char *buf, size_t n);

/* The libc an interpreter path belongs to, by its file name. */
enum rg_prog rg_interp_kind(const char *interp);

/* The interpreter of a "#!" line in buf (n bytes), copied to out. */
bool rg_script_interp(const unsigned char *buf, size_t n, char *out, size_t cap);

#endif
