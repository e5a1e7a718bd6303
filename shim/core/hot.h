/* Where the code goes that runs in every process at start and exit, and in
 * a shell's forked child between fork and exec. A process maps the shim's
 * text afresh, and a forked child gets none of its parent's page tables for
 * it (file-backed, so the kernel does not copy them): the first instruction
 * it runs on each 64 KiB window of the text is a page fault, which maps the
 * pages of the window that are cached (fault-around). Scattered over the
 * 115 KiB of .text, this code touched two or three windows; in .text.hot,
 * which ld places first and together, it fits in one. */
#ifndef RG_HOT_H
#define RG_HOT_H

#define RG_START_TEXT __attribute__((section(".text.hot.rg_start")))

/* A constant that code reads: in .data.rel.ro, not .rodata. The loader
 * writes that page when it relocates the shim, so every process has it
 * mapped already and a fork copies its page tables; .rodata is one more
 * page for a starting process to fault in, and for every forked child
 * again. */
#define RG_START_CONST __attribute__((section(".data.rel.ro.rg_start")))

/* Data that a process which never set up writes at exit (the table it
 * restamps 0-2 on): in .data, on the page the loader has written anyway.
 * In .bss it lay pages past the context, two faults (a read, then the
 * copy) of its own in each such process. */
#define RG_START_DATA __attribute__((section(".data.rg_start")))

#endif
