#include "core/progkind.h"
#include <elf.h>
#include <string.h>

#if UINTPTR_MAX == 0xffffffffu
#define NATIVE_CLASS ELFCLASS32
#else
#define NATIVE_CLASS ELFCLASS64
#endif

#if defined(__x86_64__)
#define NATIVE_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define NATIVE_MACHINE EM_AARCH64
#elif defined(__i386__)
#define NATIVE_MACHINE EM_386
#else
#define NATIVE_MACHINE EM_NONE /* unknown: nothing counts as native */
#endif

static bool in(size_t n, uint64_t off, uint64_t len) { return off <= n && len <= n - off; }

/* Go's linker writes a note named "Go" (namesz 4, "Go\0\0") of type 4, its
 * build ID, into a PT_NOTE near the start of the file. */
static bool go_note(const unsigned char *buf, size_t n, uint64_t off, uint64_t size)
{
    if (!in(n, off, size))
        return false;
    const unsigned char *p = buf + off, *end = p + size;
    while ((size_t)(end - p) >= 12) {
        uint32_t nsz, dsz, type;
        memcpy(&nsz, p, 4);
        memcpy(&dsz, p + 4, 4);
        memcpy(&type, p + 8, 4);
        uint64_t name = ((uint64_t)nsz + 3) & ~3ull, desc = ((uint64_t)dsz + 3) & ~3ull;
        if (name + desc > (uint64_t)(end - p) - 12)
            return false;
        if ((nsz == 3 || nsz == 4) && type == 4 && memcmp(p + 12, "Go", 3) == 0)
            return true;
        p += 12 + name + desc;
    }
    return false;
}

/* One walk over the program headers, for either ELF class. */
#define WALK_PHDRS(Ehdr, Phdr)                                                         \
    do {                                                                               \
        Ehdr eh;                                                                       \
        memcpy(&eh, buf, sizeof eh);                                                   \
        look.native = buf[EI_CLASS] == NATIVE_CLASS && eh.e_machine == NATIVE_MACHINE; \
        if (eh.e_phentsize != sizeof(Phdr))                                            \
            return look;                                                               \
        bool interp = false, go = false;                                               \
        for (size_t i = 0; i < eh.e_phnum; i++) {                                      \
            uint64_t off = eh.e_phoff + i * (uint64_t)sizeof(Phdr);                    \
            if (!in(n, off, sizeof(Phdr)))                                             \
                return look; /* headers past what was read: cannot tell */             \
            Phdr ph;                                                                   \
            memcpy(&ph, buf + off, sizeof ph);                                         \
            if (ph.p_type == PT_INTERP && !interp) {                                   \
                interp = true;                                                         \
                look.interp_off = ph.p_offset;                                         \
                look.interp_len = ph.p_filesz;                                         \
            } else if (ph.p_type == PT_NOTE && !go) {                                  \
                go = go_note(buf, n, ph.p_offset, ph.p_filesz);                        \
            }                                                                          \
        }                                                                              \
        look.kind = go ? RG_PROG_GO : interp ? RG_PROG_GLIBC : RG_PROG_STATIC;         \
    } while (0)

struct rg_elf_look rg_elf_look(const unsigned char *buf, size_t n)
{
    struct rg_elf_look look = {RG_PROG_UNKNOWN, false, 0, 0};
    if (n >= 2 && buf[0] == '#' && buf[1] == '!') {
        look.kind = RG_PROG_SCRIPT;
        return look;
    }
    if (n < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG) != 0)
        return look;
    if (buf[EI_CLASS] == ELFCLASS64 && n >= sizeof(Elf64_Ehdr))
        WALK_PHDRS(Elf64_Ehdr, Elf64_Phdr);
    else if (buf[EI_CLASS] == ELFCLASS32 && n >= sizeof(Elf32_Ehdr))
        WALK_PHDRS(Elf32_Ehdr, Elf32_Phdr);
    return look;
}

enum rg_prog rg_interp_kind(const char *interp)
{
    const char *base = strrchr(interp, '/');
    base = base ? base + 1 : interp;
    if (strncmp(base, "ld-musl-", 8) == 0)
        return RG_PROG_MUSL;
    /* ld-linux-x86-64.so.2, ld-linux.so.2, ld-linux-aarch64.so.1, ld64.so.2 */
    if (strncmp(base, "ld-linux", 8) == 0 || strncmp(base, "ld64.so.", 8) == 0 ||
        strncmp(base, "ld.so.", 6) == 0)
        return RG_PROG_GLIBC;
    return RG_PROG_OTHER_LD;
}

bool rg_script_interp(const unsigned char *buf, size_t n, char *out, size_t cap)
{
    size_t i = 2;
    while (i < n && (buf[i] == ' ' || buf[i] == '\t'))
        i++;
    size_t start = i;
    while (i < n && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\0')
        i++;
    /* A line cut off by the end of the buffer may name a longer path. */
    if (i == start || i == n || i - start >= cap)
        return false;
    memcpy(out, buf + start, i - start);
    out[i - start] = '\0';
    return true;
}
