/* Reading a 64-bit ELF program for readguard doctor (elfscan.c). */
#ifndef RG_CLI_ELFSCAN_H
#define RG_CLI_ELFSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* A program's file, mapped whole. */
struct rg_image {
    const unsigned char *p;
    size_t size;
};

/* What keeps the preload from seeing a program's calls: Go and Bun make
 * their own system calls, io_uring opens files no call names, and libuv
 * uses it when the environment asks. */
struct rg_elf_traits {
    bool go, bun, uring, libuv;
};

/* m is a 64-bit ELF file whose header fits (the caller checked both). */

/* Has the program an ELF interpreter (PT_INTERP)? The first one's path, when
 * it lies in the file and fits, goes to loader (PATH_MAX bytes, "" if not). */
bool rg_elf_interp(const struct rg_image *m, char *loader);

void rg_elf_traits(const struct rg_image *m, struct rg_elf_traits *t);

#endif
