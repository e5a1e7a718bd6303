/* The next definition of a libc function, as dlsym(RTLD_NEXT, name) gives
 * it to the shim, found without the loader's lock. dlsym takes that lock,
 * and a child forked (or made by _Fork) while another thread of its parent
 * held it, as a dlopen does while the library's constructors run, has it
 * held by a thread it does not have: a hook's first dlsym there waited
 * forever. This walks the loader's list of objects instead (the program's
 * DT_DEBUG names it) and reads each one's GNU hash table. */
#ifndef RG_NEXTSYM_H
#define RG_NEXTSYM_H

/* Notes main()'s arguments, which glibc hands constructors: the auxiliary
 * vector that follows the environment the kernel laid out says where the
 * program's headers are. (musl's getauxval is asked instead.) */
void rg_next_note_start(int argc, char **argv, char **envp);

/* The default version of name, defined by the first object loaded after
 * the one this code is in, or NULL when the walk cannot tell: nothing was
 * noted yet (on glibc), the program has no DT_DEBUG, this object is
 * not on the list or comes after libc (a dlopen'ed shim), an object has no
 * GNU hash table, the symbol is an IFUNC or has more than one default
 * version, or no object from here to libc defines it (what is dlopen'ed
 * later is not searched). The caller then asks dlsym. Async-signal-safe; allocates
 * nothing, takes no lock. */
void *rg_next_func(const char *name);

#endif
