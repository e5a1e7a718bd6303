/* What doctor reads in a 64-bit ELF program: its interpreter, and the
 * traits of programs whose calls the preload does not see. Every offset the
 * file gives is checked against its size first: the file is anyone's. */
#include "cli/elfscan.h"
#include <elf.h>
#include <limits.h>
#include <string.h>

static bool in(const struct rg_image *m, uint64_t off, uint64_t len)
{
    return off <= m->size && len <= m->size - off;
}

static const Elf64_Shdr *section(const struct rg_image *m, const Elf64_Ehdr *eh, size_t i)
{
    uint64_t off = eh->e_shoff + i * (uint64_t)eh->e_shentsize;
    return in(m, off, sizeof(Elf64_Shdr)) ? (const Elf64_Shdr *)(m->p + off) : NULL;
}

static const char *str_at(const struct rg_image *m, const Elf64_Shdr *strtab, uint64_t idx)
{
    if (!strtab || !in(m, strtab->sh_offset, strtab->sh_size) || idx >= strtab->sh_size)
        return "";
    const char *s = (const char *)m->p + strtab->sh_offset + idx;
    return memchr(s, '\0', strtab->sh_size - idx) ? s : "";
}

/* Undefined dynamic symbols named io_uring_*, or DT_NEEDED liburing. */
static void scan_dynamic(const struct rg_image *m, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
                         struct rg_elf_traits *t)
{
    const Elf64_Shdr *strtab = section(m, eh, sh->sh_link);
    if (!in(m, sh->sh_offset, sh->sh_size) || !sh->sh_entsize)
        return;
    size_t n = sh->sh_size / sh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *ent = m->p + sh->sh_offset + i * sh->sh_entsize;
        if (sh->sh_type == SHT_DYNSYM && sh->sh_entsize >= sizeof(Elf64_Sym)) {
            const Elf64_Sym *sym = (const Elf64_Sym *)ent;
            const char *name = str_at(m, strtab, sym->st_name);
            if (sym->st_shndx == SHN_UNDEF && strncmp(name, "io_uring_", 9) == 0)
                t->uring = true;
            if (strcmp(name, "uv_loop_init") == 0) /* node links libuv in, or imports it */
                t->libuv = true;
        } else if (sh->sh_type == SHT_DYNAMIC && sh->sh_entsize >= sizeof(Elf64_Dyn)) {
            const Elf64_Dyn *d = (const Elf64_Dyn *)ent;
            const char *needed = d->d_tag == DT_NEEDED ? str_at(m, strtab, d->d_un.d_val) : "";
            t->uring |= strncmp(needed, "liburing.so", 11) == 0;
            t->libuv |= strncmp(needed, "libuv.so", 8) == 0;
        }
    }
}

/* Go writes its build information to .go.buildinfo and a "Go" build ID
 * note; Bun's compiled executables carry a .bun section. */
static void scan_sections(const struct rg_image *m, const Elf64_Ehdr *eh, struct rg_elf_traits *t)
{
    const Elf64_Shdr *names = section(m, eh, eh->e_shstrndx);
    if (eh->e_shentsize != sizeof(Elf64_Shdr))
        return;
    for (size_t i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *sh = section(m, eh, i);
        if (!sh)
            break;
        const char *name = str_at(m, names, sh->sh_name);
        t->go |= strcmp(name, ".go.buildinfo") == 0 || strcmp(name, ".note.go.buildid") == 0;
        t->bun |= strcmp(name, ".bun") == 0;
        if (sh->sh_type == SHT_DYNSYM || sh->sh_type == SHT_DYNAMIC)
            scan_dynamic(m, eh, sh, t);
    }
}

/* Older Bun executables append the script after a marker at the end. */
static bool bun_trailer(const struct rg_image *m)
{
    static const char mark[] = "---- Bun! ----";
    size_t tail = m->size < 4096 ? m->size : 4096;
    return memmem(m->p + m->size - tail, tail, mark, sizeof mark - 1) != NULL;
}

bool rg_elf_interp(const struct rg_image *m, char *loader)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)m->p;
    bool interp = false;
    loader[0] = '\0';
    if (eh->e_phentsize != sizeof(Elf64_Phdr))
        return false;
    for (size_t i = 0; i < eh->e_phnum; i++) {
        uint64_t off = eh->e_phoff + i * sizeof(Elf64_Phdr);
        if (!in(m, off, sizeof(Elf64_Phdr)))
            continue;
        const Elf64_Phdr *ph = (const Elf64_Phdr *)(m->p + off);
        if (ph->p_type == PT_INTERP && !interp && in(m, ph->p_offset, ph->p_filesz) &&
            ph->p_filesz < PATH_MAX) {
            memcpy(loader, m->p + ph->p_offset, ph->p_filesz);
            loader[ph->p_filesz] = '\0';
        }
        interp |= ph->p_type == PT_INTERP;
    }
    return interp;
}

void rg_elf_traits(const struct rg_image *m, struct rg_elf_traits *t)
{
    *t = (struct rg_elf_traits){0};
    scan_sections(m, (const Elf64_Ehdr *)m->p, t);
    t->bun |= bun_trailer(m);
}
