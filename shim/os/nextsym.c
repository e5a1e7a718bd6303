#include "os/nextsym.h"
#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/auxv.h>

#include "core/hot.h"
#include "os/symver.h"

/* ElfW spelled out, for the lint tools that do not expand it. */
#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Addr elf_addr;
typedef Elf64_Dyn elf_dyn;
typedef Elf64_Phdr elf_phdr;
typedef Elf64_Sym elf_sym;
typedef Elf64_Half elf_half;
typedef Elf64_auxv_t elf_auxv;
#else
typedef Elf32_Addr elf_addr;
typedef Elf32_Dyn elf_dyn;
typedef Elf32_Phdr elf_phdr;
typedef Elf32_Sym elf_sym;
typedef Elf32_Half elf_half;
typedef Elf32_auxv_t elf_auxv;
#endif

/* This object's dynamic section: how its entry on the loader's list is
 * told from the others. Hidden, so it is reached without a relocation. */
extern elf_dyn _DYNAMIC[] __attribute__((visibility("hidden")));

#ifdef __GLIBC__
/* The process's auxiliary vector, just after the environment its
 * constructors were given. Not getauxval: a symbol version the shim needs
 * from nowhere else costs ld.so about 650 instructions in every process.
 * Process-wide: a fact of the image, handed once, before any context. */
static char **start_envp;

/* Only the arrays the kernel laid out, where the vector follows: a dlopen
 * after a setenv hands constructors environ, a copy on the heap. */
RG_START_TEXT void rg_next_note_start(int argc, char **argv, char **envp)
{
    if (argv && argc >= 0 && envp == argv + argc + 1)
        start_envp = envp;
}

/* One entry of the auxiliary vector, or 0. unsetenv shifts the initial
 * environment down in place, and each removal leaves one more NULL before
 * the one the kernel put there: the vector starts at the first word after
 * them that is not NULL (its first entry's type never is). A program that
 * stores NULL into environ itself can leave pointers in between; they read
 * as types no entry has, and the read either stops at the kernel's NULL or
 * goes on from it in step with the real vector. */
static unsigned long aux(unsigned long type)
{
    char **p = start_envp;
    if (!p)
        return 0;
    while (*p)
        p++;
    while (!*p)
        p++;
    for (const elf_auxv *a = (const elf_auxv *)p; a->a_type != AT_NULL; a++)
        if (a->a_type == type)
            return a->a_un.a_val;
    return 0;
}
#else
/* musl versions no symbol: getauxval costs no start-up. */
void rg_next_note_start(int argc, char **argv, char **envp) { (void)argc, (void)argv, (void)envp; }

static unsigned long aux(unsigned long type) { return getauxval(type); }
#endif

/* The loader's r_debug, from the program's DT_DEBUG entry, which ld.so
 * fills in at start. Its load bias from PT_PHDR, as ld.so takes it. */
static struct r_debug *loader_debug(void)
{
    const elf_phdr *ph = (const elf_phdr *)aux(AT_PHDR);
    unsigned long n = aux(AT_PHNUM);
    elf_addr bias = 0, dyn = 0;
    bool phdr = false;
    for (unsigned long i = 0; ph && i < n; i++) {
        if (ph[i].p_type == PT_PHDR)
            bias = (elf_addr)ph - ph[i].p_vaddr, phdr = true;
        else if (ph[i].p_type == PT_DYNAMIC)
            dyn = ph[i].p_vaddr;
    }
    /* Without PT_PHDR the bias is a guess (a position-independent program
     * linked oddly would be read at the wrong address): ask dlsym. */
    if (!dyn || !phdr)
        return NULL;
    for (const elf_dyn *d = (const elf_dyn *)(dyn + bias); d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_DEBUG)
            return (struct r_debug *)d->d_un.d_ptr;
    return NULL;
}

/* What one object's dynamic section says about its symbols. */
struct dynsyms {
    const elf_sym *sym;
    const char *str;
    const uint32_t *gnu_hash;
    const elf_half *versym;
};

/* ld.so relocates these entries in place, except in a read-only dynamic
 * section (the vDSO's): an address below the load bias is not relocated. */
static const void *dyn_ptr(const struct link_map *m, elf_addr p)
{
    return (const void *)(p < m->l_addr ? p + m->l_addr : p);
}

static bool read_dynamic(const struct link_map *m, struct dynsyms *t)
{
    *t = (struct dynsyms){NULL, NULL, NULL, NULL};
    for (const elf_dyn *d = m->l_ld; d && d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: t->sym = dyn_ptr(m, d->d_un.d_ptr); break;
        case DT_STRTAB: t->str = dyn_ptr(m, d->d_un.d_ptr); break;
        case DT_GNU_HASH: t->gnu_hash = dyn_ptr(m, d->d_un.d_ptr); break;
        case DT_VERSYM: t->versym = dyn_ptr(m, d->d_un.d_ptr); break;
        default: break;
        }
    }
    return t->sym && t->str && t->gnu_hash;
}

/* No libc calls here: a function's first call through the shim's PLT
 * costs a lookup by ld.so, about what the whole walk costs. */
static bool same_name(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static uint32_t gnu_hash(const char *s)
{
    uint32_t h = 5381;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = h * 33 + *p;
    return h;
}

enum found { NOT_HERE, FOUND, CANNOT_TELL };

/* Whether ld.so would take sym for an unversioned lookup of a function:
 * defined, global or weak, and not a version other than the default. */
static bool acceptable(const struct dynsyms *t, uint32_t i, int *versions)
{
    const elf_sym *s = &t->sym[i];
    int bind = ELF64_ST_BIND(s->st_info);
    if (s->st_shndx == SHN_UNDEF || s->st_value == 0 ||
        (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE))
        return false;
    if (t->versym && (t->versym[i] & 0x7fff) >= 2) {
        if (t->versym[i] & 0x8000)
            return false; /* an old version, kept for old programs */
        ++*versions;
    }
    return true;
}

/* Looks name up in one object by its GNU hash table (the layout ld.so
 * reads: a bloom filter, buckets, then chains of hashes). */
static enum found lookup(const struct dynsyms *t, const struct link_map *m, const char *name,
                         uint32_t h, void **out)
{
    const uint32_t nbuckets = t->gnu_hash[0], symoffset = t->gnu_hash[1],
                   bloom_size = t->gnu_hash[2], bloom_shift = t->gnu_hash[3];
    const elf_addr *bloom = (const elf_addr *)&t->gnu_hash[4];
    const uint32_t *buckets = (const uint32_t *)&bloom[bloom_size], *chain = &buckets[nbuckets];
    const unsigned bits = sizeof(elf_addr) * 8;
    if (!nbuckets || !bloom_size)
        return NOT_HERE;
    elf_addr word = bloom[(h / bits) % bloom_size];
    elf_addr mask = ((elf_addr)1 << (h % bits)) | ((elf_addr)1 << ((h >> bloom_shift) % bits));
    uint32_t i = buckets[h % nbuckets];
    if ((word & mask) != mask || i < symoffset)
        return NOT_HERE;
    const elf_sym *best = NULL;
    int versions = 0;
    for (;; i++) {
        uint32_t h2 = chain[i - symoffset];
        if ((h | 1) == (h2 | 1) && same_name(name, t->str + t->sym[i].st_name) &&
            acceptable(t, i, &versions) && !best)
            best = &t->sym[i];
        if (h2 & 1)
            break;
    }
    if (!best)
        return NOT_HERE;
    if (versions > 1 || ELF64_ST_TYPE(best->st_info) == STT_GNU_IFUNC)
        return CANNOT_TELL;
    *out = (void *)(m->l_addr + best->st_value);
    return FOUND;
}

static enum found find_in(const struct link_map *m, const char *name, void **out)
{
    struct dynsyms t;
    return read_dynamic(m, &t) ? lookup(&t, m, name, gnu_hash(name), out) : CANNOT_TELL;
}

/* The objects the walk searches: from the first after this one to libc,
 * found once. Only objects loaded at start come before libc, and those are
 * never unloaded; what a dlopen adds joins the list after it, may be out of
 * the scope RTLD_NEXT searches (RTLD_LOCAL), and can be unmapped under the
 * walk by another thread's dlclose. A name libc lacks is left to dlsym. */
struct span {
    const struct link_map *first, *last;
};

static struct span walked_span(void)
{
    /* Process-wide: the loader's list up to libc is the image's, fixed. */
    static struct span span;
    static bool known;
    if (__atomic_load_n(&known, __ATOMIC_ACQUIRE))
        return span;
    struct r_debug *r = loader_debug();
    const struct link_map *m = r ? r->r_map : NULL;
    void *p;
    /* Preloaded, the shim comes before libc on the list. dlopen'ed, it
     * comes after, and RTLD_NEXT then searches its own dependencies, not
     * what was loaded after it: the walk does not answer for that. */
    for (; m && m->l_ld != _DYNAMIC; m = m->l_next)
        if (find_in(m, "__libc_start_main", &p) != NOT_HERE)
            return span;
    const struct link_map *first = m ? m->l_next : NULL;
    for (m = first; m && find_in(m, "__libc_start_main", &p) != FOUND; m = m->l_next)
        ;
    if (!m)
        return span; /* no libc after this one: the walk cannot tell */
    span = (struct span){first, m};
    __atomic_store_n(&known, true, __ATOMIC_RELEASE);
    return span;
}

void *rg_next_func(const char *name)
{
    void *p = NULL;
    const struct span s = walked_span();
    for (const struct link_map *m = s.first; m; m = m->l_next) {
        switch (find_in(m, name, &p)) {
        case FOUND: return p;
        case CANNOT_TELL: return NULL;
        case NOT_HERE: break;
        }
        if (m == s.last)
            break;
    }
    return NULL;
}
